import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('a HOST no URL can hold is refused by its own name, not as POSTSHOT_PUBLIC_URL', () => {
  for (const host of ['999.1.1.1', 'my host', '[::1]']) {
    assert.throws(
      () => loadConfig({ HOST: host }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'HOST' && err.message.includes(`"${host}"`),
      host,
    );
  }
});

test('ordinary HOST values still make the default public URL', () => {
  assert.equal(loadConfig({}).publicUrl, 'http://127.0.0.1:8080');
  assert.equal(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).publicUrl, 'http://0.0.0.0:9000');
  assert.equal(loadConfig({ HOST: '::' }).publicUrl, 'http://[::]:8080');
  assert.equal(loadConfig({ HOST: 'localhost' }).publicUrl, 'http://localhost:8080');
  // With POSTSHOT_PUBLIC_URL set, HOST is only the listen address and is not made into a URL.
  assert.equal(
    loadConfig({ HOST: 'my host', POSTSHOT_PUBLIC_URL: 'https://api.example.com' }).publicUrl,
    'https://api.example.com',
  );
});

test('a URL setting is used as the parser read it: blanks trimmed, inner blanks and queries refused', () => {
  // A trailing space (an .env line) was kept and went into every hosted image URL and sign-in link.
  assert.equal(loadConfig({ POSTSHOT_PUBLIC_URL: ' https://api.example.com/ ' }).publicUrl, 'https://api.example.com');
  for (const [variable, value] of [
    ['POSTSHOT_PUBLIC_URL', 'https://api.exa\tmple.com'],
    ['POSTSHOT_PUBLIC_URL', 'https://api.example.com/?utm=1'],
    ['POSTSHOT_PUBLIC_URL', 'https://api.example.com/#top'],
    ['POSTSHOT_FXTWITTER_URL', 'https://api.fxtwitter.com/?x=1'],
  ]) {
    assert.throws(
      () => loadConfig({ [variable]: value }),
      (err: unknown) => err instanceof ConfigError && err.variable === variable,
      `${variable}=${JSON.stringify(value)}`,
    );
  }
});

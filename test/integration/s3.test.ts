import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { S3ImageStore } from '../../src/storage/images/s3.ts';
import { startS3, BUCKET } from '../scaled.ts';

function store(endpoint: string, extra: Record<string, string> = {}) {
  const config = loadConfig({
    POSTSHOT_IMAGE_STORE: `s3://${BUCKET}/hosted`,
    POSTSHOT_S3_ENDPOINT: endpoint,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    ...extra,
  });
  if (config.imageStore.kind !== 's3') throw new Error('expected s3');
  return new S3ImageStore(config.imageStore, 'https://api.example.com');
}

test('S3 store: content-addressed objects, served through the service by default', async () => {
  const { endpoint } = await startS3();
  const s = store(endpoint);
  await s.ping();
  const bytes = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${Date.now()}</svg>`);
  const put = await s.put(bytes, 'svg', 'image/svg+xml');
  assert.match(put.url, /^https:\/\/api\.example\.com\/images\/[0-9a-f]{64}\.svg$/);
  const got = await s.get(put.key);
  assert.ok(got?.bytes.equals(bytes));
  assert.equal(got?.contentType, 'image/svg+xml');
  assert.equal(await s.get(`${'f'.repeat(64)}.png`), null);
  assert.equal(await s.get('../secret'), null);
});

test('S3 store: with a public base URL, hosted URLs point straight at the bucket', async () => {
  const { endpoint } = await startS3();
  const s = store(endpoint, { POSTSHOT_S3_PUBLIC_URL: `${endpoint}/${BUCKET}` });
  const bytes = Buffer.from(`png-${Date.now()}`);
  const put = await s.put(bytes, 'png', 'image/png');
  assert.equal(put.url, `${endpoint}/${BUCKET}/hosted/${put.key}`);
  const res = await fetch(put.url);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(bytes));
});

test('S3 store: starting one prints no AWS SDK notice on stderr, on any supported Node.js', () => {
  // The SDK emits its notice when the client is made; a warning is printed on a later tick.
  const script = `
    const { loadConfig } = await import('./src/config.ts');
    const { S3ImageStore } = await import('./src/storage/images/s3.ts');
    const config = loadConfig({
      POSTSHOT_IMAGE_STORE: 's3://${BUCKET}/hosted', POSTSHOT_S3_ENDPOINT: 'http://127.0.0.1:9',
      AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER',
    });
    new S3ImageStore(config.imageStore, 'https://api.example.com');
    await new Promise((resolve) => setTimeout(resolve, 100));
    console.log('made');`;
  const env = { ...process.env };
  delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: new URL('../..', import.meta.url),
    env,
    encoding: 'utf8',
  });
  assert.equal(child.stdout.trim(), 'made', child.stderr);
  assert.doesNotMatch(child.stderr, /NodeVersionSupportWarning|AWS SDK/);
});

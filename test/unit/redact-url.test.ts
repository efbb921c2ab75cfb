import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactUrl } from '../../src/util/redact-url.ts';

test('a URL in a log line or message keeps its server and loses its password', () => {
  assert.equal(
    redactUrl('postgres://ops:s3cret@db.internal:5432/postshot?schema=a'),
    'postgres://ops:redacted@db.internal:5432/postshot?schema=a',
  );
  assert.equal(
    redactUrl('postgres://db.internal/postshot?password=s3cret&sslmode=require'),
    'postgres://db.internal/postshot?password=redacted&sslmode=require',
  );
  assert.equal(redactUrl('redis://:s3cret@cache:6379'), 'redis://:redacted@cache:6379');
  assert.equal(redactUrl('postgres://db.internal/postshot'), 'postgres://db.internal/postshot');
  // Not parseable: everything before the last @ is taken for credentials.
  assert.equal(redactUrl('postgres://ops:s3c@ret@[bad/x'), 'postgres://redacted@[bad/x');
  assert.equal(redactUrl('postgres://[bad/x?password=s3cret'), 'postgres://[bad/x?password=redacted');
});

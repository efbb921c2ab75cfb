import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mcpEndpoint } from '../../src/cli/mcp.ts';

test('postshot mcp --url: the service root or its /mcp address, whatever follows the path', () => {
  for (const [url, endpoint] of [
    // A query or fragment stays after the path: /mcp was appended after it, so the root got the post.
    ['http://127.0.0.1:8080/?tenant=a', 'http://127.0.0.1:8080/mcp?tenant=a'],
    ['http://127.0.0.1:8080#docs', 'http://127.0.0.1:8080/mcp'],
    ['https://shots.example.com', 'https://shots.example.com/mcp'],
    ['https://shots.example.com/', 'https://shots.example.com/mcp'],
    ['https://shots.example.com/mcp/', 'https://shots.example.com/mcp'],
    ['https://example.com/postshot/', 'https://example.com/postshot/mcp'],
  ]) {
    assert.equal(mcpEndpoint(url).href, endpoint, url);
  }
});

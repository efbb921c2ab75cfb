import { createHash, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { encodeBase62, generateBase62 } from '../ids.ts';

// psk_ + 32 random base62 + 6-char base62 CRC32 of the random part. The checksum lets a
// mistyped or made-up key be refused without touching the database.
const KEY_PATTERN = /^psk_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function checksum(body: string): string {
  return encodeBase62(crc32(body), 6);
}

export function generateApiKey(): string {
  const body = generateBase62(32);
  return `psk_${body}${checksum(body)}`;
}

export function isWellFormedApiKey(key: string): boolean {
  const m = KEY_PATTERN.exec(key);
  if (!m) return false;
  const expected = Buffer.from(checksum(m[1]));
  return timingSafeEqual(expected, Buffer.from(m[2]));
}

/** Only this digest is stored; lookups go by digest, so the comparison never sees a plaintext key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The part safe to show in listings: enough to tell keys apart, useless for authenticating. */
export function displayPrefix(key: string): string {
  return key.slice(0, 10);
}

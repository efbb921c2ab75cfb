import { randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn from the CSPRNG in blocks: one call per id instead of one per character.
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++];
}

/** Uniform random base62 string from the CSPRNG. */
export function generateBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 248 = 4 × 62: bytes at or above it are dropped, so every character is equally likely.
    if (b < 248) out += BASE62[b % 62];
  }
  return out;
}

export function encodeBase62(value: number, width: number): string {
  let out = '';
  let n = value;
  while (n > 0) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(width, '0');
}

/**
 * `<prefix>_` then the creation time in milliseconds (8 base62 characters, so ids sort by
 * creation up to the year 8900) and 12 random characters (71 bits). New rows of a table then land
 * at the end of its id index, not on a random page of it (docs/performance.md).
 */
export function generateId(prefix: string, now = Date.now()): string {
  return `${prefix}_${encodeBase62(now, 8)}${generateBase62(12)}`;
}

import fs from 'node:fs';
import path from 'node:path';
import type { TestContext } from 'node:test';

export const REPO_DIR = path.resolve(import.meta.dirname, '..');
export const SAMPLES_DIR = path.join(REPO_DIR, 'samples');
export const SHARED_FIXTURES = path.resolve(REPO_DIR, '..', 'shared', 'fixtures');
export const hasShared = fs.existsSync(path.join(SHARED_FIXTURES, 'upstream'));

/** Tests over ../shared/fixtures run where it exists (CI) and skip with a notice elsewhere. */
export function requireShared(t: TestContext): boolean {
  if (hasShared) return true;
  t.diagnostic(`../shared/fixtures not found at ${SHARED_FIXTURES}: skipping recorded-fixture checks`);
  t.skip('../shared/fixtures is not present');
  return false;
}

export function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

export function listBodies(
  kind: 'fxtwitter' | 'syndication' | 'syndication-older-shape',
  root = SHARED_FIXTURES,
): string[] {
  const dir = path.join(root, 'upstream', kind);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(dir, f))
    .sort();
}

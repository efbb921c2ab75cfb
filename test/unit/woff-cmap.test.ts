import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { readCoverage } from '../../src/render/woff-cmap.ts';

const require = createRequire(import.meta.url);
const filesOf = (pkg: string) => path.join(path.dirname(require.resolve(`@fontsource/${pkg}/package.json`)), 'files');

// Each @fontsource subset ships as WOFF and WOFF2: both must read as the same code points. The
// WOFF2 ones are TrueType with transformed glyf and loca tables laid before or after the cmap.
test('a WOFF2 font reads as the same code points as the WOFF of the same subset', () => {
  for (const [pkg, subset] of [
    ['noto-sans', 'latin'],
    ['noto-sans-arabic', 'arabic'],
    ['noto-sans-symbols-2', 'symbols'],
    ['noto-sans-khmer', 'khmer'],
    ['noto-sans-tc', '100'],
    ['noto-sans-hk', '100'],
  ]) {
    const base = path.join(filesOf(pkg), `${pkg}-${subset}-400-normal`);
    const woff = readCoverage(fs.readFileSync(`${base}.woff`));
    const woff2 = readCoverage(fs.readFileSync(`${base}.woff2`));
    assert.ok(woff.size > 50, `${pkg} ${subset}: ${woff.size} code points`);
    assert.deepEqual([...woff2].sort(), [...woff].sort(), `${pkg} ${subset}`);
  }
});

test('a CFF-based WOFF2 slice of Noto Sans CJK reads its ideographs', () => {
  const css = require.resolve('noto-sans-cjk-sc');
  const dir = path.join(path.dirname(path.dirname(css)), 'fonts', 'NotoSansCJKsc-Regular');
  const all = new Set<number>();
  for (const file of fs.readdirSync(dir))
    for (const cp of readCoverage(fs.readFileSync(path.join(dir, file)))) all.add(cp);
  // 齉 (U+9F49) and 𰻞 (U+30EDE), which Google's subsets of Noto leave out.
  for (const cp of [0x9f49, 0x30ede, 0x4e00, 0x3400]) assert.ok(all.has(cp), `U+${cp.toString(16)}`);
});

test('a file that is neither WOFF nor WOFF2 has no code points', () => {
  assert.equal(readCoverage(Buffer.from('OTTO\0\0\0\0\0\0\0\0\0\0\0\0')).size, 0);
});

// Reads which code points a WOFF font really has (its cmap), so font selection never picks a
// face whose declared unicode-range is wider than its glyphs.
import { inflateSync } from 'node:zlib';

function tableData(woff: Buffer, tag: string): Buffer | null {
  if (woff.readUInt32BE(0) !== 0x774f4646) return null; // 'wOFF'
  const numTables = woff.readUInt16BE(12);
  for (let i = 0; i < numTables; i++) {
    const at = 44 + i * 20;
    if (woff.toString('latin1', at, at + 4) !== tag) continue;
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + compLength);
    return compLength < origLength ? inflateSync(raw) : raw;
  }
  return null;
}

/** The code points a WOFF font maps to glyphs (cmap formats 4 and 12). */
export function readCoverage(woff: Buffer): Set<number> {
  const cmap = tableData(woff, 'cmap');
  const out = new Set<number>();
  if (!cmap) return out;
  const count = cmap.readUInt16BE(2);
  let best: { format: number; offset: number } | null = null;
  for (let i = 0; i < count; i++) {
    const platform = cmap.readUInt16BE(4 + i * 8);
    const encoding = cmap.readUInt16BE(6 + i * 8);
    const offset = cmap.readUInt32BE(8 + i * 8);
    const format = cmap.readUInt16BE(offset);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode || (format !== 4 && format !== 12)) continue;
    if (!best || format > best.format) best = { format, offset };
  }
  if (!best) return out;
  const o = best.offset;
  if (best.format === 12) {
    const groups = cmap.readUInt32BE(o + 12);
    for (let g = 0; g < groups; g++) {
      const start = cmap.readUInt32BE(o + 16 + g * 12);
      const end = cmap.readUInt32BE(o + 20 + g * 12);
      for (let cp = start; cp <= end; cp++) out.add(cp);
    }
    return out;
  }
  const segX2 = cmap.readUInt16BE(o + 6);
  const ends = o + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const rangeOffsets = deltas + segX2;
  for (let s = 0; s < segX2 / 2; s++) {
    const end = cmap.readUInt16BE(ends + s * 2);
    const start = cmap.readUInt16BE(starts + s * 2);
    const delta = cmap.readInt16BE(deltas + s * 2);
    const ro = cmap.readUInt16BE(rangeOffsets + s * 2);
    for (let cp = start; cp <= end && cp !== 0xffff; cp++) {
      let glyph: number;
      if (ro === 0) glyph = (cp + delta) & 0xffff;
      else {
        const at = rangeOffsets + s * 2 + ro + (cp - start) * 2;
        glyph = at + 1 < cmap.length ? cmap.readUInt16BE(at) : 0;
        if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
      }
      if (glyph !== 0) out.add(cp);
    }
  }
  return out;
}

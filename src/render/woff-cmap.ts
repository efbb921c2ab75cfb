// Reads which code points a WOFF or WOFF2 font really has (its cmap), so font selection never
// picks a face whose declared unicode-range is wider than its glyphs.
import { brotliDecompressSync, inflateSync } from 'node:zlib';

function woffTable(woff: Buffer, tag: string): Buffer | null {
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

// WOFF2's directory names common tables by index; cmap is 0, glyf and loca (transformed by
// default) 10 and 11. Only these indices matter to find the cmap in the decompressed tables.
const WOFF2_GLYF = 10;
const WOFF2_LOCA = 11;
const WOFF2_KNOWN_TAGS = 63;

/** A WOFF2 table: its tables are one Brotli stream, laid end to end in directory order. */
function woff2Table(woff: Buffer, tag: string): Buffer | null {
  if (tag !== 'cmap') return null;
  const numTables = woff.readUInt16BE(12);
  const compressedLength = woff.readUInt32BE(20);
  let at = 48;
  const readBase128 = () => {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = woff[at++];
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('bad UIntBase128');
  };
  let offset = 0;
  let found: { offset: number; length: number } | null = null;
  for (let i = 0; i < numTables; i++) {
    const flags = woff[at++];
    const index = flags & 0x3f;
    const name = index === WOFF2_KNOWN_TAGS ? woff.toString('latin1', at, (at += 4)) : null;
    const version = flags >> 6;
    const origLength = readBase128();
    const glyfOrLoca = index === WOFF2_GLYF || index === WOFF2_LOCA;
    const transformed = glyfOrLoca ? version === 0 : version !== 0;
    const length = transformed ? readBase128() : origLength;
    if (!found && (index === 0 || name === 'cmap')) found = { offset, length };
    offset += length;
  }
  if (!found) return null;
  const tables = brotliDecompressSync(woff.subarray(at, at + compressedLength));
  return tables.subarray(found.offset, found.offset + found.length);
}

function tableData(font: Buffer, tag: string): Buffer | null {
  const signature = font.readUInt32BE(0);
  if (signature === 0x774f4646) return woffTable(font, tag); // 'wOFF'
  if (signature === 0x774f4632) return woff2Table(font, tag); // 'wOF2'
  return null;
}

/** The code points a WOFF or WOFF2 font maps to glyphs (cmap formats 4 and 12). */
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

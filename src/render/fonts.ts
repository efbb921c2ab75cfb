// Fonts ship with the package (npm @fontsource/*, WOFF), split by Unicode subset. A render loads
// only the subsets that cover the characters it draws: a Latin post never parses a CJK font.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readCoverage } from './woff-cmap.ts';

export interface FontFace {
  /** Unique per subset: satori picks one font per family name, so each subset is its own family. */
  name: string;
  weight: 400 | 700;
  file: string;
  ranges: Array<[number, number]>;
}

const require = createRequire(import.meta.url);

// Priority order: the first face whose unicode-range covers a character draws it.
const BASE_PACKAGES = ['noto-sans', 'noto-sans-arabic', 'noto-sans-hebrew', 'noto-sans-thai', 'noto-sans-symbols-2'];
const CJK_DEFAULT = ['noto-sans-sc', 'noto-sans-jp', 'noto-sans-kr'];
const CJK_JAPANESE = ['noto-sans-jp', 'noto-sans-sc', 'noto-sans-kr'];

function packageDir(pkg: string): string {
  return path.dirname(require.resolve(`@fontsource/${pkg}/package.json`));
}

function parseRanges(spec: string): Array<[number, number]> {
  return spec.split(',').map((part) => {
    const [a, b] = part.trim().replace(/^U\+/i, '').split('-');
    const start = parseInt(a.replace(/\?/g, '0'), 16);
    const end = b ? parseInt(b, 16) : a.includes('?') ? parseInt(a.replace(/\?/g, 'F'), 16) : start;
    return [start, end];
  });
}

function parseCss(pkg: string, weight: 400 | 700): FontFace[] {
  const dir = packageDir(pkg);
  const css = path.join(dir, `${weight}.css`);
  if (!fs.existsSync(css)) return [];
  const faces: FontFace[] = [];
  for (const block of fs.readFileSync(css, 'utf8').split('@font-face').slice(1)) {
    const file = /url\(\.\/files\/([^)]+?\.woff)\)\s*format\('woff'\)/.exec(block)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    if (!file || !range) continue;
    const subset = file.replace(`${pkg}-`, '').replace(/-\d00-normal\.woff$/, '');
    faces.push({ name: `${pkg}~${subset}`, weight, file: path.join(dir, 'files', file), ranges: parseRanges(range) });
  }
  return faces;
}

interface Index {
  faces: FontFace[];
  /** Per priority order, the 400 faces (coverage is decided on regular weight). */
  byOrder: Map<string, FontFace[]>;
}

let index: Index | null = null;

function loadIndex(): Index {
  if (index) return index;
  const faces: FontFace[] = [];
  for (const pkg of [...BASE_PACKAGES, ...CJK_DEFAULT]) faces.push(...parseCss(pkg, 400), ...parseCss(pkg, 700));
  const byOrder = new Map<string, FontFace[]>();
  for (const [key, cjk] of [
    ['default', CJK_DEFAULT],
    ['ja', CJK_JAPANESE],
  ] as const) {
    const order = [...BASE_PACKAGES, ...cjk];
    byOrder.set(
      key,
      faces
        .filter((f) => f.weight === 400)
        .sort((a, b) => order.indexOf(a.name.split('~')[0]) - order.indexOf(b.name.split('~')[0])),
    );
  }
  index = { faces, byOrder };
  return index;
}

const coverage = new Map<string, Set<number>>();

/** Declared range first (cheap), then the font's own cmap (read once per face). */
function covers(face: FontFace, cp: number): boolean {
  let inRange = false;
  for (const [a, b] of face.ranges) if (cp >= a && cp <= b) inRange = true;
  if (!inRange) return false;
  let set = coverage.get(face.file);
  if (!set) coverage.set(face.file, (set = readCoverage(readFontData(face))));
  return set.has(cp);
}

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}/u;
const KANA = /[\u3040-\u30ff\u31f0-\u31ff]/;

export interface FontSelection {
  faces: FontFace[];
  /** Family names in fallback order, for the CSS font-family of every text node. */
  families: string[];
}

const selectionCache = new Map<string, FontSelection>();

/** The faces (regular and bold) that cover `text`, in fallback order. Emoji are drawn as images, not here. */
export function selectFonts(text: string, lang?: string): FontSelection {
  const { faces, byOrder } = loadIndex();
  const japanese = lang === 'ja' || KANA.test(text);
  const order = byOrder.get(japanese ? 'ja' : 'default')!;
  // Latin is always there: handles, dates and counters are drawn in it.
  const chosen = new Set<string>(['noto-sans~latin']);
  const seen = new Set<number>();
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    // ASCII is in Latin; U+FE0E/FE0F and joiners only select presentations.
    if (cp < 0x80 || cp === 0xfe0e || cp === 0xfe0f || cp === 0x200d || seen.has(cp)) continue;
    // Emoji are Twemoji images; a font that happens to have them must not be loaded for them.
    // Symbols below U+1F000 (☄ ✓ ♥) are often meant as text and stay with the fonts.
    if (cp >= 0x1f000 && EMOJI.test(ch)) continue;
    seen.add(cp);
    const face = order.find((f) => covers(f, cp));
    if (face) chosen.add(face.name);
  }
  const key = `${japanese ? 'ja' : ''}|${[...chosen].join(',')}`;
  const cached = selectionCache.get(key);
  if (cached) return cached;
  const families = order.filter((f) => chosen.has(f.name)).map((f) => f.name);
  const selection = { faces: faces.filter((f) => chosen.has(f.name)), families };
  selectionCache.set(key, selection);
  return selection;
}

const data = new Map<string, Buffer>();

/** Font bytes, read once: satori caches parsed fonts by the identity of this buffer. */
export function readFontData(face: FontFace): Buffer {
  let buf = data.get(face.file);
  if (!buf) data.set(face.file, (buf = fs.readFileSync(face.file)));
  return buf;
}

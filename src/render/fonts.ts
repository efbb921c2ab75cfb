// Fonts ship with the package (npm @fontsource/noto-*, WOFF; Noto Sans CJK SC whole, WOFF2), split
// by Unicode subset. A render loads only the subsets that have glyphs for the characters it draws:
// a Latin post never parses a CJK or Tamil font.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readCoverage } from './woff-cmap.ts';

export interface FontFace {
  /** The CSS family: one per package, its subsets told apart by their glyphs. */
  family: string;
  /** Unique per subset file and weight. */
  name: string;
  weight: 400 | 700;
  file: string;
  /** The file a browser gets instead, when the engine's shaper needs another version of it. */
  browserFile?: string;
  /**
   * unicode-range the package declares, a first filter before the font's own cmap: first and
   * last code point of each range in turn. Flat: the CJK packages declare some seventy thousand
   * ranges, and as pairs they were half of a render process's heap objects.
   */
  ranges: Uint32Array;
}

const require = createRequire(import.meta.url);

// Priority order: the first family with a glyph draws a character, in the engine as in a browser.
// Symbols and math come before CJK, whose fonts also draw arrows and stars, full-width.
const SCRIPT_PACKAGES = [
  'noto-sans',
  'noto-sans-whole',
  'noto-sans-arabic',
  'noto-sans-hebrew',
  'noto-sans-thai',
  'noto-sans-devanagari',
  // Held at 5.2.10 (Noto Sans Bengali 3.000) for the engine: 3.011 finds ra- and ba-phala with a
  // context rule (format 3) that its shaper, harfrust 0.12, tests one glyph off, drawing প্র as
  // প্‌র. HarfBuzz, a browser's, draws 3.000's ন্ধ ন্ম as loose pieces: the HTML gets 3.011.
  'noto-sans-bengali',
  'noto-sans-tamil',
  'noto-sans-telugu',
  'noto-sans-gujarati',
  'noto-sans-gurmukhi',
  'noto-sans-malayalam',
  'noto-sans-kannada',
  'noto-sans-sinhala',
  'noto-sans-khmer',
  'noto-sans-lao',
  'noto-sans-myanmar',
  'noto-sans-georgian',
  'noto-sans-armenian',
  'noto-sans-ethiopic',
  'noto-sans-symbols',
  'noto-sans-symbols-2',
  'noto-sans-math',
];
// Scripts whose packages also carry common punctuation and CJK brackets (Mongolian draws 「」《》):
// ranked after the CJK fonts, they draw their own letters and nothing another font already draws.
const LATE_PACKAGES = [
  'noto-sans-oriya',
  'noto-serif-tibetan',
  'noto-sans-thaana',
  'noto-sans-syriac',
  'noto-sans-nko',
  'noto-sans-adlam',
  'noto-sans-mongolian',
  'noto-sans-tifinagh',
  'noto-sans-cherokee',
  'noto-sans-canadian-aboriginal',
  'noto-sans-ol-chiki',
  'noto-sans-meetei-mayek',
  'noto-sans-javanese',
  'noto-sans-balinese',
  'noto-sans-buginese',
  'noto-sans-cham',
  'noto-sans-coptic',
  'noto-sans-gothic',
  'noto-sans-hanifi-rohingya',
  'noto-sans-kayah-li',
  'noto-sans-limbu',
  'noto-sans-miao',
  'noto-sans-new-tai-lue',
  'noto-sans-newa',
  'noto-sans-ogham',
  'noto-sans-osage',
  'noto-sans-runic',
  'noto-sans-samaritan',
  'noto-sans-sundanese',
  'noto-sans-syloti-nagri',
  'noto-sans-tagalog',
  'noto-sans-tai-le',
  'noto-sans-tai-viet',
  'noto-sans-vai',
  // Published only as 4.x packages (another CSS layout, read the same way).
  'noto-sans-yi',
  'noto-sans-lisu',
  'noto-sans-tai-tham',
  'noto-sans-bamum',
  'noto-sans-lepcha',
  'noto-sans-saurashtra',
];
/**
 * Noto Sans CJK SC whole (npm noto-sans-cjk-sc, in WOFF2 slices): the ideographs that the subsets
 * above leave out (U+9F49, most of Extension A, Extension B's that Noto draws). Ranked last of all,
 * so it draws only what no other font has.
 */
const CJK_WHOLE = 'noto-sans-cjk-sc';
const LATE = new Set([...LATE_PACKAGES, CJK_WHOLE]);
// Noto Sans HK draws Hong Kong's own characters (Cantonese 𠹌 㓥, many in Extension B): after the
// others, for what they lack, except in Traditional text, where its forms are the nearer ones.
const CJK_ORDERS: Record<'sc' | 'tc' | 'ja', string[]> = {
  sc: ['noto-sans-sc', 'noto-sans-tc', 'noto-sans-jp', 'noto-sans-kr', 'noto-sans-hk'],
  tc: ['noto-sans-tc', 'noto-sans-hk', 'noto-sans-sc', 'noto-sans-jp', 'noto-sans-kr'],
  ja: ['noto-sans-jp', 'noto-sans-sc', 'noto-sans-tc', 'noto-sans-kr', 'noto-sans-hk'],
};
/** Packages split into many numbered subsets: their declared ranges are trusted as a filter. */
const CJK = new Set([...CJK_ORDERS.sc, CJK_WHOLE]);

function packageDir(pkg: string): string {
  return path.dirname(require.resolve(`@fontsource/${pkg}/package.json`));
}

/** Packages whose HTML gets another version of the font (an npm alias in package.json). */
const BROWSER_PACKAGES: Record<string, string> = { 'noto-sans-bengali': 'noto-sans-bengali-browser' };

function browserPackageDir(pkg: string): string {
  return path.dirname(require.resolve(`${BROWSER_PACKAGES[pkg]}/package.json`));
}

/**
 * Noto Sans in one file (the 4.x package, `noto-sans-4` in package.json). The 5.x subsets leave
 * out most combining marks, super- and subscripts and letterlike signs, and the engine draws a
 * letter and its marks from one face: å̊, IPA and stacked marks need a face with both. This one
 * declares only what the subsets lack, so it is loaded for those characters alone.
 */
const WHOLE = 'noto-sans-whole';

function wholeFaces(weight: 400 | 700): FontFace[] {
  const dir = path.dirname(require.resolve('noto-sans-4/package.json'));
  const file = path.join(dir, 'files', `noto-sans-all-${weight}-normal.woff`);
  if (!fs.existsSync(file)) return [];
  return [{ family: WHOLE, name: `${WHOLE}~all~${weight}`, weight, file, ranges: new Uint32Array() }];
}

function cjkWholeFaces(weight: 400 | 700): FontFace[] {
  // The package exports its CSS only: its root is found from the main stylesheet.
  const dir = path.dirname(path.dirname(require.resolve(CJK_WHOLE)));
  const css = path.join(dir, 'css', weight === 400 ? 'regular.css' : 'bold.css');
  const faces: FontFace[] = [];
  for (const block of fs.readFileSync(css, 'utf8').split('@font-face').slice(1)) {
    const file = /url\("?\.\.\/fonts\/([^")]+\.woff2)"?\)/.exec(block)?.[1];
    const range = /unicode-range:\s*([^;}]+)/.exec(block)?.[1];
    if (!file || !range) continue;
    faces.push({
      family: CJK_WHOLE,
      name: `${CJK_WHOLE}~${path.basename(file, '.woff2')}~${weight}`,
      weight,
      file: path.join(dir, 'fonts', file),
      ranges: parseRanges(range),
    });
  }
  return faces;
}

/** What the whole font has and none of the subsets of its family has, as declared ranges. */
function declareWhatSubsetsLack(faces: FontFace[]): void {
  const subsets = faces.filter((f) => f.family === 'noto-sans' && f.weight === 400).map(coverageOf);
  for (const face of faces.filter((f) => f.family === WHOLE)) {
    const own = [...coverageOf(face)].filter((cp) => !subsets.some((s) => s.has(cp)));
    face.ranges = Uint32Array.from(rangesOfCodePoints(own).flat());
  }
}

/** Code points as ranges of consecutive ones, in order. */
function rangesOfCodePoints(codePoints: Iterable<number>): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const cp of [...codePoints].sort((a, b) => a - b)) {
    const last = ranges.at(-1);
    if (last && last[1] === cp - 1) last[1] = cp;
    else ranges.push([cp, cp]);
  }
  return ranges;
}

/** A CSS unicode-range as sorted, merged pairs: declares() searches them by halves. */
function parseRanges(spec: string): Uint32Array {
  const pairs = spec
    .split(',')
    .map((part): [number, number] => {
      const [a, b] = part.trim().replace(/^U\+/i, '').split('-');
      const start = parseInt(a.replace(/\?/g, '0'), 16);
      const end = b ? parseInt(b, 16) : a.includes('?') ? parseInt(a.replace(/\?/g, 'F'), 16) : start;
      return [start, end];
    })
    .sort((x, y) => x[0] - y[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of pairs) {
    const last = merged.at(-1);
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return Uint32Array.from(merged.flat());
}

function parseCss(pkg: string, weight: 400 | 700): FontFace[] {
  const dir = packageDir(pkg);
  const css = path.join(dir, `${weight}.css`);
  if (!fs.existsSync(css)) return [];
  const faces: FontFace[] = [];
  for (const block of fs.readFileSync(css, 'utf8').split('@font-face').slice(1)) {
    // Each subset's WOFF sits beside its WOFF2. The 4.x packages' CSS names the WOFF2 subset and
    // one whole-font WOFF for every block; the subset's own WOFF is shipped all the same.
    const base = /url\('?\.\/files\/([^)']+?)\.woff2'?\)/.exec(block)?.[1];
    const file = base && `${base}.woff`;
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1];
    if (!file || !range || !fs.existsSync(path.join(dir, 'files', file))) continue;
    const subset = file.replace(`${pkg}-`, '').replace(/-\d00-normal\.woff$/, '');
    // Numbered subsets slice a large font. In the CJK packages they are the font; elsewhere (Noto
    // Sans Mongolian) they repeat letters of the script's own subset, and a letter drawn from a
    // slice is shaped apart from its word (ᠭ lost its dots).
    if (/^\d+$/.test(subset) && !CJK.has(pkg)) continue;
    const browserFile = BROWSER_PACKAGES[pkg] && path.join(browserPackageDir(pkg), 'files', file);
    faces.push({
      family: pkg,
      name: `${pkg}~${subset}~${weight}`,
      weight,
      file: path.join(dir, 'files', file),
      ...(browserFile && fs.existsSync(browserFile) ? { browserFile } : {}),
      ranges: parseRanges(range),
    });
  }
  return faces;
}

let allFaces: FontFace[] | null = null;

/** Every face the package ships, regular and bold. */
export function listFaces(): FontFace[] {
  if (!allFaces) {
    const facesOf = (pkg: string) =>
      pkg === WHOLE
        ? [...wholeFaces(400), ...wholeFaces(700)]
        : pkg === CJK_WHOLE
          ? [...cjkWholeFaces(400), ...cjkWholeFaces(700)]
          : [...parseCss(pkg, 400), ...parseCss(pkg, 700)];
    allFaces = [...SCRIPT_PACKAGES, ...CJK_ORDERS.sc, ...LATE_PACKAGES, CJK_WHOLE].flatMap(facesOf);
    declareWhatSubsetsLack(allFaces);
  }
  return allFaces;
}

const orders = new Map<string, FontFace[]>();

const isLatin = (f: FontFace) => (f.name.includes('~latin~') ? 0 : 1);

/**
 * The regular faces in fallback order (coverage is decided on the regular weight). Within a
 * family the Latin subset comes first: it is always loaded, and marks it shares with another
 * subset (U+0304 with Vietnamese) then load nothing more.
 */
function regularFaces(cjk: keyof typeof CJK_ORDERS): FontFace[] {
  let order = orders.get(cjk);
  if (!order) {
    const rank = [...SCRIPT_PACKAGES, ...CJK_ORDERS[cjk], ...LATE_PACKAGES, CJK_WHOLE];
    order = listFaces()
      .filter((f) => f.weight === 400)
      .sort((a, b) => rank.indexOf(a.family) - rank.indexOf(b.family) || isLatin(a) - isLatin(b));
    orders.set(cjk, order);
  }
  return order;
}

/**
 * The faces of `face`'s family and weight in fallback order (Latin first, as in regularFaces); a
 * CJK subset alone. The engine tries a family's faces in the order they were registered: loaded
 * as renders first needed them, a post's letters came from one subset or another depending on
 * what the thread drew before (decomposed Vietnamese Ấ drew its marks two ways).
 */
export function familyFaces(face: FontFace): FontFace[] {
  if (CJK.has(face.family)) return [face];
  return listFaces()
    .filter((f) => f.family === face.family && f.weight === face.weight)
    .sort((a, b) => isLatin(a) - isLatin(b));
}

const coverage = new Map<string, Set<number>>();

/** The code points a face has glyphs for (its cmap, read once). */
export function coverageOf(face: FontFace): Set<number> {
  let set = coverage.get(face.file);
  if (!set) coverage.set(face.file, (set = readCoverage(readFontData(face))));
  return set;
}

const servedRanges = new Map<string, Array<[number, number]>>();

/**
 * The unicode-range a face serves, in the engine and in the HTML output alike: the declared one
 * for CJK subsets, the glyphs the font really has otherwise (some packages declare less).
 */
export function rangesOf(face: FontFace): Array<[number, number]> {
  let ranges = servedRanges.get(face.file);
  if (!ranges) {
    if (CJK.has(face.family)) {
      ranges = [];
      for (let i = 0; i < face.ranges.length; i += 2) ranges.push([face.ranges[i], face.ranges[i + 1]]);
    } else ranges = rangesOfCodePoints(coverageOf(face));
    servedRanges.set(face.file, ranges);
  }
  return ranges;
}

/** Whether the face's declared ranges (sorted pairs) hold `cp`: a CJK subset declares hundreds. */
function declares(face: FontFace, cp: number): boolean {
  const r = face.ranges;
  let low = 0;
  let high = r.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (cp < r[2 * mid]) high = mid - 1;
    else if (cp > r[2 * mid + 1]) low = mid + 1;
    else return true;
  }
  return false;
}

function covers(face: FontFace, cp: number): boolean {
  if (CJK.has(face.family) && !declares(face, cp)) return false;
  return coverageOf(face).has(cp);
}

/**
 * The face that draws `cp`: the first in `order` whose declared unicode-range holds it, as a
 * browser picks among a package's subsets, else the first with a glyph. Subsets share
 * punctuation and spaces (NBSP is in all eight of Noto Sans'): by glyphs alone the first subset,
 * Cyrillic, would be loaded for a French post's NBSP.
 */
function faceFor(order: FontFace[], cp: number): FontFace | undefined {
  const pick = (among: (f: FontFace) => boolean) =>
    order.find((f) => among(f) && declares(f, cp) && covers(f, cp)) ?? order.find((f) => among(f) && covers(f, cp));
  // The late scripts' packages declare marks and signs the fonts above also draw (U+0305 in
  // Coptic's range, drawn by Noto Sans Math): they are asked only when no font above has it.
  return pick((f) => !LATE.has(f.family)) ?? pick((f) => LATE.has(f.family));
}

// faceFor scans declared ranges (tens of thousands for the CJK packages: 3 ms for a Chinese
// post's characters), so each order keeps its answers per code point.
const facesFound = new Map<FontFace[], Map<number, FontFace | null>>();

function cachedFaceFor(order: FontFace[], cp: number): FontFace | null {
  let found = facesFound.get(order);
  if (!found || found.size > 100_000) facesFound.set(order, (found = new Map()));
  let face = found.get(cp);
  if (face === undefined) found.set(cp, (face = faceFor(order, cp) ?? null));
  return face;
}

const KANA = /[\u3040-\u30ff\u31f0-\u31ff]/;
// Common characters whose Simplified form differs: text with them is Traditional Chinese, drawn
// with Traditional glyph forms (X's lang is often just "zh").
const TRADITIONAL =
  /[們這個為說國來時會後對學開關與還從動體點當過發現問員經頭實長進聽聽說萬東車書見電話讓認識覺處興覽覺號錢題類應該樣麼臺灣歡謝愛氣網頁歲總費門間]/;

/** Which CJK fonts come first for a post: Japanese, Traditional or (default) Simplified. */
function cjkOrder(text: string, lang?: string): keyof typeof CJK_ORDERS {
  if (lang === 'ja' || KANA.test(text)) return 'ja';
  if (/^zh-(tw|hk|mo|hant)/i.test(lang ?? '') || TRADITIONAL.test(text)) return 'tc';
  return 'sc';
}

export interface FontSelection {
  faces: FontFace[];
  /** Family names in fallback order, for the CSS font-family of the card. */
  families: string[];
  /** Code points no face has a glyph for. */
  missing: number[];
}

const selectionCache = new Map<string, FontSelection>();
const SHARED = /^(?:\p{Script=Common}|\p{Script=Inherited})$/u;
// Controls, format characters (joiners, tags) and variation selectors draw nothing of their own.
const INVISIBLE = /^(?:\p{Cc}|\p{Cf}|\p{Zl}|\p{Zp}|\p{Variation_Selector})$/u;

const WITH_MARKS = /\P{M}\p{M}+/gu;

/**
 * Adds, for each letter with combining marks that no chosen face has all of, the first face that
 * has them all. A grapheme is drawn from one face, in the engine as in a browser: Greek Ϊ́
 * (Ι U+0308 U+0301) or Church Slavonic а҃ (U+0483) took the letter's subset, which lacks the
 * marks, and drew boxes where Noto Sans whole has the letter and its marks.
 */
function addFacesForMarks(
  text: string,
  order: FontFace[],
  letters: Set<FontFace>,
  isPicture: (cp: number) => boolean,
): void {
  const done = new Set<string>();
  for (const [cluster] of text.matchAll(WITH_MARKS)) {
    if (done.has(cluster)) continue;
    done.add(cluster);
    const drawn = [...cluster].filter((ch) => !INVISIBLE.test(ch)).map((ch) => ch.codePointAt(0)!);
    if (drawn.some(isPicture)) continue;
    const hasAll = (f: FontFace) => drawn.every((cp) => covers(f, cp));
    if ([...letters].some(hasAll)) continue;
    const face = order.find(hasAll);
    if (face) letters.add(face);
  }
}

/**
 * The faces (regular and bold) with glyphs for `text`, in fallback order. `isPicture` tells the
 * characters drawn as images (emoji): no font is loaded for them.
 */
export function selectFonts(
  text: string,
  lang?: string,
  isPicture: (cp: number) => boolean = () => false,
): FontSelection {
  const cjk = cjkOrder(text, lang);
  const order = regularFaces(cjk);
  // Latin is always there: handles, dates and counters are drawn in it.
  const letters = new Set<FontFace>([order.find((f) => f.name === 'noto-sans~latin~400')!]);
  const missing: number[] = [];
  const seen = new Set<number>();
  const shared: number[] = [];
  const choose = (cp: number, face = cachedFaceFor(order, cp)) => {
    if (face) letters.add(face);
    else missing.push(cp);
  };
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80 || seen.has(cp)) continue;
    seen.add(cp);
    // Nothing is drawn for these: a face chosen for one (the joiner inside an emoji sequence)
    // would be loaded, and inlined into HTML, for no glyph. Scripts that shape with them (ZWNJ
    // in Persian) have them in their own faces, chosen by their letters.
    if (isPicture(cp) || INVISIBLE.test(ch)) continue;
    if (SHARED.test(ch)) shared.push(cp);
    else choose(cp);
  }
  // Punctuation, spaces and marks of no one script come from a face the letters already chose
  // when it has them: a Mongolian suffix's U+202F must be the Mongolian font's to shape with its
  // word, and a math font loaded for it alone would draw it first.
  // A family the letters use still comes first (a face of it they chose, when one has the
  // character): a Chinese post's 。 stays Noto Sans SC's, full width, when a Tai Le word's font
  // also has a narrow one.
  const ofLetters = [...letters];
  const letterFamilies = new Set(ofLetters.map((f) => f.family));
  for (const cp of shared) {
    const face = cachedFaceFor(order, cp);
    if (face && letterFamilies.has(face.family)) {
      if (!ofLetters.some((f) => f.family === face.family && covers(f, cp))) letters.add(face);
    } else if (!ofLetters.some((f) => covers(f, cp))) choose(cp, face);
  }
  addFacesForMarks(text, order, letters, isPicture);
  const chosen = new Set([...letters].map((f) => f.name.replace(/~400$/, '')));
  const key = `${cjk}|${[...chosen].join(',')}|${missing.join(',')}`;
  const cached = selectionCache.get(key);
  if (cached) return cached;
  const faces = listFaces().filter((f) => chosen.has(f.name.replace(/~[47]00$/, '')));
  const families = [...new Set(order.map((f) => f.family))].filter((family) => faces.some((f) => f.family === family));
  const selection = { faces, families, missing };
  if (selectionCache.size > 2000) selectionCache.clear();
  selectionCache.set(key, selection);
  return selection;
}

/**
 * Whether a mark after `base` is drawn in one grapheme with it. A grapheme is drawn from one font
 * file, and the CJK packages split their fonts into subset files by script: a Latin mark on a
 * kana or an ideograph found no file with both, and the browser and the engine drew a box.
 */
export function marksJoin(base: number, mark: number): boolean {
  const face = cachedFaceFor(regularFaces('sc'), base);
  return !face || !CJK.has(face.family) || covers(face, mark);
}

const glyphs = new Map<number, boolean>();

/** Whether any shipped face has a glyph for the code point. */
export function hasGlyph(cp: number): boolean {
  let has = glyphs.get(cp);
  if (has === undefined) {
    has = cp < 0x80 || regularFaces('sc').some((f) => covers(f, cp));
    glyphs.set(cp, has);
  }
  return has;
}

const data = new Map<string, Buffer>();

/** Font bytes, read once per thread: the engine's, or those a browser gets (`browserFile`). */
export function readFontData(face: FontFace, reader: 'engine' | 'browser' = 'engine'): Buffer {
  const file = (reader === 'browser' && face.browserFile) || face.file;
  let buf = data.get(file);
  if (!buf) data.set(file, (buf = fs.readFileSync(file)));
  return buf;
}

// The card's own labels (counts, dates) and handles are short strings of known Noto Sans glyphs:
// their widths are known before layout, so a row can be fitted to the card without measuring it.

/** Advance widths in em of Noto Sans Regular's glyphs for digits, compact numbers, dates and handles. */
const ADVANCE_EM: Record<string, number> = {
  ' ': 0.26,
  ',': 0.268,
  '.': 0.268,
  ':': 0.268,
  '·': 0.268,
  '@': 0.899,
  _: 0.444,
  A: 0.639,
  B: 0.65,
  C: 0.632,
  D: 0.73,
  E: 0.556,
  F: 0.519,
  G: 0.728,
  H: 0.741,
  I: 0.339,
  J: 0.273,
  K: 0.619,
  L: 0.524,
  M: 0.907,
  N: 0.76,
  O: 0.781,
  P: 0.605,
  Q: 0.781,
  R: 0.622,
  S: 0.549,
  T: 0.556,
  U: 0.731,
  V: 0.6,
  W: 0.93,
  X: 0.586,
  Y: 0.566,
  Z: 0.572,
  a: 0.561,
  b: 0.615,
  c: 0.48,
  d: 0.615,
  e: 0.564,
  f: 0.344,
  g: 0.615,
  h: 0.618,
  i: 0.258,
  j: 0.258,
  k: 0.534,
  l: 0.258,
  m: 0.935,
  n: 0.618,
  o: 0.605,
  p: 0.615,
  q: 0.615,
  r: 0.413,
  s: 0.479,
  t: 0.361,
  u: 0.618,
  v: 0.508,
  w: 0.786,
  x: 0.529,
  y: 0.51,
  z: 0.47,
};
/** Digits are tabular. */
const DIGIT_EM = 0.572;
/** An unknown glyph is taken as wide as the widest here, so an estimate never falls short. */
const WIDEST_EM = 0.935;

/**
 * The pairs of these glyphs that Noto Sans kerns apart, in em (as Chromium lays them out at 15 px):
 * every other pair's kerning only narrows, so a width without it never falls short.
 */
const KERNED_APART_EM: Record<string, number> = { _J: 0.094, AJ: 0.049, EJ: 0.06, TT: 0.02 };

/** The width in px of `label` in Noto Sans Regular at `fontSize`, rounded up. */
export function labelWidth(label: string, fontSize: number): number {
  let em = 0;
  let before = '';
  for (const ch of label) {
    em += ch >= '0' && ch <= '9' ? DIGIT_EM : (ADVANCE_EM[ch] ?? WIDEST_EM);
    em += KERNED_APART_EM[before + ch] ?? 0;
    before = ch;
  }
  return Math.ceil(em * fontSize);
}

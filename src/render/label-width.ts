// The card's own labels (counts, dates) are short strings of known Noto Sans glyphs: their widths
// are known before layout, so a row can be fitted to the card without measuring it.

/** Advance widths in em of Noto Sans Regular's glyphs for digits, compact numbers and dates. */
const ADVANCE_EM: Record<string, number> = {
  ' ': 0.26,
  ',': 0.268,
  '.': 0.268,
  ':': 0.268,
  '·': 0.268,
  A: 0.639,
  B: 0.65,
  D: 0.73,
  F: 0.519,
  J: 0.273,
  K: 0.619,
  M: 0.907,
  N: 0.76,
  O: 0.781,
  S: 0.549,
  T: 0.556,
  a: 0.561,
  b: 0.615,
  c: 0.48,
  e: 0.564,
  g: 0.615,
  l: 0.258,
  n: 0.618,
  o: 0.605,
  p: 0.615,
  r: 0.413,
  t: 0.361,
  u: 0.618,
  v: 0.508,
  y: 0.51,
};
/** Digits are tabular. */
const DIGIT_EM = 0.572;
/** An unknown glyph is taken as wide as the widest here, so an estimate never falls short. */
const WIDEST_EM = 0.907;

/** The width in px of `label` in Noto Sans Regular at `fontSize`, rounded up. */
export function labelWidth(label: string, fontSize: number): number {
  let em = 0;
  for (const ch of label) em += ch >= '0' && ch <= '9' ? DIGIT_EM : (ADVANCE_EM[ch] ?? WIDEST_EM);
  return Math.ceil(em * fontSize);
}

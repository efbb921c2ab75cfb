// In a browser an inline image ends the text's shaping run: the letters on either side of it take
// the forms they have at a word's end and start (بيت😀بيت). The engine shapes the text through
// its inline images, so an Arabic letter before an emoji kept its joining form. A ZWNJ on each
// side of the image does in the engine's text what the run's end does; it is not drawn, and the
// bidi algorithm ignores it. Only letters of joining scripts get one, so no other text changes.
import type { Piece } from './rtl-run-breaks.ts';

const ZWNJ = '\u200c';
/** Scripts whose letters join their neighbours (their digits do not). */
const SCRIPTS =
  /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Adlam}\p{Script=Mandaic}\p{Script=Hanifi_Rohingya}\p{Script=Manichaean}\p{Script=Psalter_Pahlavi}\p{Script=Sogdian}\p{Script=Old_Uyghur}\p{Script=Chorasmian}]/u;
/** A letter of those scripts, or the tatweel they share. */
const JOINING = `(?:(?=\\p{L})${SCRIPTS.source}|\\u0640)`;
// A letter's marks follow it: the letter is what joins.
const ENDS_JOINING = new RegExp(`${JOINING}\\p{M}*$`, 'u');
const STARTS_JOINING = new RegExp(`^${JOINING}`, 'u');

/** Puts a ZWNJ between each inline image and a joining letter beside it, in place. */
export function separateImagesFromLetters(pieces: Piece[]): void {
  pieces.forEach((piece, i) => {
    if (!piece.image) return;
    const before = pieces[i - 1];
    const after = pieces[i + 1];
    if (before && !before.image && ENDS_JOINING.test(before.text)) before.text += ZWNJ;
    if (after && !after.image && STARTS_JOINING.test(after.text)) after.text = ZWNJ + after.text;
  });
}

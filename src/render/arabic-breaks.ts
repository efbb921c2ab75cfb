// Break opportunities inside Arabic-script words too long for a line. Threat: a post may hold a
// word (a chain of hashtag words joined by _) wider than the card. overflow-wrap then lets the
// engine split it at any letter, and split inside a lam-alef ligature it draws the ligature on
// one line and a stray piece of it on the next. So such a word gets a zero-width space wherever
// its letters do not join anyway: after a letter that joins only to the right (ا د ذ ر ز و ة…),
// after _ and after ZWNJ. The engine and a browser both take those before splitting a word
// anywhere, and no letter changes shape. Words that fit on a line are left alone.

/** Arabic letters that join to the letter before them only (Joining_Type R), and hamza (U). */
const NON_JOINING_AFTER =
  '\u0621-\u0625\u0627\u0629\u062f-\u0632\u0648\u0671-\u0673\u0675-\u0677\u0688-\u0699\u06c0\u06c3-\u06cb\u06cd\u06cf\u06d2\u06d3\u06d5\u06ee\u06ef\u0759-\u075b\u076b\u076c\u0771\u0773\u0774\u0778\u0779\u08aa-\u08ac\u08ae\u08b1\u08b2\u08b9_\u200c';
const WORD = /[\p{Script=Arabic}\p{M}_\u200c\u200d]+/gu;
const GAP = new RegExp(`(?<=[${NON_JOINING_AFTER}]\\p{M}*)(?=[\\p{Script=Arabic}_])`, 'gu');
/** A generous average advance of an Arabic letter, in em: a word estimated wider may not fit. */
const AVERAGE_EM = 0.4;

export function openLongArabicWords(text: string, width: number, fontSize: number): string {
  const longest = Math.floor(width / (AVERAGE_EM * fontSize));
  return text.replace(WORD, (word) => (word.length > longest ? word.replace(GAP, '\u200b') : word));
}

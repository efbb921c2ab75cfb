import { test } from 'node:test';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, useChromium } from './html-match.ts';

// Tabs advance to the next tab stop from the line's start edge, as in a browser: tabbed columns
// line up whatever the width of the text before each tab. The engine drew each tab eight spaces
// wide, so a column began further along on each row with a longer first cell.
useChromium();

for (const [label, key, text] of [
  [
    'ltr',
    'emoji',
    'Team\tW\tL\tPts\nArsenal\t24\t3\t75\nMan City 🩵\t22\t5\t70\n\tindented\t\ttwo tabs\nwrapping text with a tab here\tand more words after it so that the line wraps\tonce more',
  ],
  ['rtl', 'arabic', 'الفريق\tفوز\tنقاط\nالهلال\t24\t75\nالنصر 🟡\t22\t70\n\tسطر بمسافة بادئة'],
] as const) {
  test(`tabs line up at tab stops as in Chromium (${label})`, async (t) => {
    const post = corpusPost(key, { text, poll: undefined });
    await assertHtmlMatchesPng(t, `tab-stops-${label}`, post, new Map(), 'light', { width: 360 });
  });
}

// A tab is a segment separator: laid at the paragraph's level, it keeps the text on either side
// of it apart, where the engine read it as a space and ran "Danny" and "45%" into one run, and
// "שלום" and "12" into another, swapping their columns.
for (const [label, key, text] of [
  ['rtl', 'hebrew', 'שם\tName\t%\nדני\tDanny\t45%\nשלום\tHello, world!\t(123)\tסוף'],
  ['ltr', 'emoji', 'Check:\tשלום\t12\nNote: שלום!\tעולם (טוב)\tend\nשלום\t12 34\tx\nعربي\t١٢٣\tمرحبا\t😀\tok'],
] as const) {
  test(`text beside tabs is ordered as in Chromium (${label} paragraphs)`, async (t) => {
    const post = corpusPost(key, { text });
    await assertHtmlMatchesPng(t, `tab-bidi-${label}`, post, new Map(), 'light', { width: 400 });
  });
}

// One line that never wraps (a name, a poll choice) keeps its tabs too: the engine drew them eight
// spaces wide, Chromium at their tab stops.
for (const [label, key, name, choices] of [
  ['ltr', 'emoji', 'Dana\tDoe', ['A\tB', 'Longer\tC']],
  ['rtl', 'hebrew', 'דני\tכהן 🇮🇱', ['כן\tYes', 'לא בכלל\tNo']],
] as const) {
  test(`tabs in a name and poll choices line up as in Chromium (${label})`, async (t) => {
    const post = corpusPost(key, { name, text: 'Tabs', poll: choices.map((c, i): [string, number] => [c, i + 1]) });
    await assertHtmlMatchesPng(t, `tab-stops-line-${label}`, post, new Map(), 'light', { width: 360 });
  });
}

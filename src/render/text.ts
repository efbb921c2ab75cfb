// Post text as card elements: entity colours, kept line breaks, and right-to-left paragraphs.
//
// satori shapes each run (Arabic joining, Devanagari reordering) but lays words out left to
// right whatever the script. Paragraphs with right-to-left text are therefore laid out here: the
// Unicode bidi algorithm (bidi-js) gives each word its direction; words flow in a wrapping flex
// row that runs right to left when the paragraph is RTL, and runs of the other direction are
// kept together in a nested row of their own direction.
import bidiFactory from 'bidi-js';
import { segmentText, type Post } from '../sources/post.ts';
import { box, span, textBlock, type Child, type El } from './tree.ts';

const bidi = bidiFactory();
const RTL_CHAR = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;

export interface TextStyle {
  width: number;
  fontSize: number;
  lineHeight: number;
  color: string;
  linkColor: string;
}

interface Run {
  text: string;
  link: boolean;
}

/** Paragraphs (split at line breaks) of coloured runs. */
function paragraphsOf(post: Pick<Post, 'text' | 'entities'>): Run[][] {
  const paragraphs: Run[][] = [[]];
  for (const seg of segmentText(post)) {
    const link = seg.type !== 'text';
    seg.text.split('\n').forEach((piece, i) => {
      if (i > 0) paragraphs.push([]);
      if (piece) paragraphs.at(-1)!.push({ text: piece, link });
    });
  }
  return paragraphs;
}

function inlineParagraph(runs: Run[], s: TextStyle, preWrap: boolean): El {
  const children: Child[] = runs.map((r) => (r.link ? span({ color: s.linkColor }, r.text) : r.text));
  return textBlock(
    {
      width: s.width,
      fontSize: s.fontSize,
      lineHeight: `${s.lineHeight}px`,
      color: s.color,
      whiteSpace: preWrap ? 'pre-wrap' : 'normal',
      wordBreak: 'break-word',
    },
    children,
  );
}

interface Word {
  text: string;
  link: boolean;
  rtl: boolean;
}

function bidiParagraph(runs: Run[], s: TextStyle): El {
  const text = runs.map((r) => r.text).join('');
  const { levels, paragraphs } = bidi.getEmbeddingLevels(text, 'auto');
  const baseRtl = (paragraphs[0]?.level ?? 0) % 2 === 1;
  const words: Word[] = [];
  let offset = 0;
  for (const run of runs) {
    for (const m of run.text.matchAll(/\S+/g)) {
      const start = offset + m.index!;
      let rtl = false;
      for (let i = start; i < start + m[0].length; i++) if (levels[i] % 2 === 1) rtl = true;
      words.push({ text: m[0], link: run.link, rtl });
    }
    offset += run.text.length;
  }
  const gap = Math.round(s.fontSize * 0.27);
  const wordEl = (w: Word): El =>
    box({ color: w.link ? s.linkColor : s.color, fontSize: s.fontSize, lineHeight: `${s.lineHeight}px` }, w.text);
  // Consecutive words of one direction form a group; a group against the paragraph direction
  // is nested so its words keep their own order.
  const groups: Word[][] = [];
  for (const w of words) {
    const last = groups.at(-1);
    if (last && last[0].rtl === w.rtl) last.push(w);
    else groups.push([w]);
  }
  const children: El[] = groups.flatMap((g) =>
    g[0].rtl === baseRtl
      ? g.map(wordEl)
      : [box({ flexDirection: g[0].rtl ? 'row-reverse' : 'row', flexWrap: 'wrap', columnGap: gap }, ...g.map(wordEl))],
  );
  return box(
    { width: s.width, flexDirection: baseRtl ? 'row-reverse' : 'row', flexWrap: 'wrap', columnGap: gap },
    ...children,
  );
}

/** The element for a post's text. */
export function renderText(post: Pick<Post, 'text' | 'entities'>, s: TextStyle): El | null {
  if (!post.text) return null;
  const paragraphs = paragraphsOf(post);
  if (!RTL_CHAR.test(post.text)) {
    // The common case: one block, breaks kept by pre-wrap.
    const runs = paragraphs.flatMap((p, i) => (i === 0 ? p : [{ text: '\n', link: false }, ...p]));
    return inlineParagraph(runs, s, true);
  }
  return box(
    { flexDirection: 'column', width: s.width },
    ...paragraphs.map((p) =>
      p.length === 0
        ? box({ height: s.lineHeight, width: s.width })
        : p.some((r) => RTL_CHAR.test(r.text))
          ? bidiParagraph(p, s)
          : inlineParagraph(p, s, false),
    ),
  );
}

// One grapheme segmenter for the process: grapheme boundaries are the same in every locale.
export const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

declare module 'bidi-js' {
  interface Bidi {
    /** The Bidi_Class of the string's first code point ('L', 'R', 'AL', 'LRI', ...). */
    getBidiCharTypeName(char: string): string;
    /** UAX #9 embedding levels, one per UTF-16 unit, with the paragraphs' levels. */
    getEmbeddingLevels(text: string, direction?: 'ltr' | 'rtl'): EmbeddingLevels;
    /** The string's UTF-16 units in visual order, left to right (UAX #9 rules L1-L2). */
    getReorderedIndices(text: string, levels: EmbeddingLevels, start?: number, end?: number): number[];
  }
  interface EmbeddingLevels {
    levels: Uint8Array;
    paragraphs: Array<{ start: number; end: number; level: number }>;
  }
  export default function bidiFactory(): Bidi;
}

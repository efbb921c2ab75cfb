declare module 'bidi-js' {
  interface EmbeddingLevels {
    levels: Uint8Array;
    paragraphs: Array<{ start: number; end: number; level: number }>;
  }
  interface Bidi {
    getEmbeddingLevels(text: string, direction?: 'ltr' | 'rtl' | 'auto'): EmbeddingLevels;
    getReorderSegments(text: string, levels: EmbeddingLevels, start?: number, end?: number): Array<[number, number]>;
    getMirroredCharacter(char: string): string | null;
    /** The Bidi_Class of the string's first code point ('L', 'R', 'AL', 'LRI', ...). */
    getBidiCharTypeName(char: string): string;
  }
  export default function bidiFactory(): Bidi;
}

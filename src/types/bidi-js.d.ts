declare module 'bidi-js' {
  interface Bidi {
    /** The Bidi_Class of the string's first code point ('L', 'R', 'AL', 'LRI', ...). */
    getBidiCharTypeName(char: string): string;
  }
  export default function bidiFactory(): Bidi;
}

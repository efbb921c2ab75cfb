// Names a customer gives (a key's, the account's display name) are shown back on pages and in
// the CLI: controls and bidi embeddings, overrides and isolates could reorder what is around them.
const UNSAFE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/** True when `name` holds a control character or a bidi embedding, override or isolate. */
export function hasUnsafeCharacter(name: string): boolean {
  return UNSAFE.test(name);
}

import type { Post } from './post.ts';

/** What one source says about one id. A refusal or failure is a value, never an exception. */
export type SourceResult =
  | { kind: 'found'; post: Post }
  /** Final: deleted, never existed, protected, age-restricted, tombstoned, author suspended. */
  | { kind: 'not_found'; detail: string }
  /** Try the next source: 5xx, 429, timeout, reset, malformed body, redirect. */
  | { kind: 'failed'; detail: string; timeout: boolean; status?: number; code?: string };

export interface PostSource {
  readonly name: 'fxtwitter' | 'syndication';
  fetchPost(id: string): Promise<SourceResult>;
}

export type PostOutcome =
  | { kind: 'found'; post: Post }
  | { kind: 'not_found'; detail: string }
  | { kind: 'unavailable'; detail: string; timeout: boolean };

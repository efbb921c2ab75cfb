import type { Post } from '../../sources/post.ts';

/** What is cached per post id: a post, or the final word that there is none. */
export type CachedPost = { kind: 'found'; post: Post } | { kind: 'not_found'; detail: string };

export interface PostCache {
  get(id: string): Promise<CachedPost | null>;
  set(id: string, value: CachedPost, ttlMs: number): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Makes concurrent loads of one key share one execution. The in-process version shares a
 * promise; the Redis version elects one instance to load while others wait for the cache.
 */
export interface SingleFlight {
  run<T>(key: string, load: () => Promise<T>, waitForOther: () => Promise<T | null>): Promise<T>;
  close(): Promise<void>;
}

import type { CachedPost, PostCache, SingleFlight } from '../storage/cache/interface.ts';
import type { PostOutcome, PostSource } from './interface.ts';

const NEGATIVE_TTL_MS = 60_000;

/** Where a failed source is reported (the service's logger at warn). */
export type UpstreamFailureLog = (fields: Record<string, unknown>, message: string) => void;

/** Sources in order, behind a cache and single-flight: the one way the service gets a post. */
export class PostService {
  constructor(
    private readonly sources: PostSource[],
    private readonly cache: PostCache,
    private readonly flight: SingleFlight,
    private readonly ttlMs: number,
    private readonly logFailure: UpstreamFailureLog = () => {},
  ) {}

  /** The cached outcome for `id`, without loading it: null when it is not cached. */
  getCached(id: string): Promise<CachedPost | null> {
    return this.cache.get(id);
  }

  async getPost(id: string): Promise<PostOutcome> {
    const hit = await this.cache.get(id);
    if (hit) return hit;
    return this.flight.run(
      `post:${id}`,
      () => this.loadUnlessCached(id),
      async () => this.cache.get(id),
    );
  }

  /**
   * Our miss above may have come just before another caller's load finished and let go of the
   * flight (in this process, or another instance's Redis lock): read the cache again once we
   * lead, or the post is fetched twice.
   */
  private async loadUnlessCached(id: string): Promise<PostOutcome> {
    return (await this.cache.get(id)) ?? this.load(id);
  }

  private async load(id: string): Promise<PostOutcome> {
    const outcome = await this.fetchFromSources(id);
    if (outcome.kind !== 'unavailable') {
      await this.cache.set(
        id,
        outcome as CachedPost,
        outcome.kind === 'found' ? this.ttlMs : Math.min(this.ttlMs, NEGATIVE_TTL_MS),
      );
    }
    return outcome;
  }

  private async fetchFromSources(id: string): Promise<PostOutcome> {
    const failures: { detail: string; timeout: boolean }[] = [];
    for (const source of this.sources) {
      const started = performance.now();
      const result = await source.fetchPost(id);
      if (result.kind !== 'failed') return result;
      // The one report of this failure: the 502 or 504 the caller gets does not repeat it.
      this.logFailure(
        {
          source: source.name,
          postId: id,
          status: result.status,
          code: result.code ?? (result.timeout ? 'timeout' : undefined),
          durationMs: Math.round(performance.now() - started),
          detail: result.detail,
        },
        'upstream source failed',
      );
      failures.push(result);
    }
    return {
      kind: 'unavailable',
      detail: failures.map((f) => f.detail).join('; '),
      // A source that timed out is the likelier story for the caller than one that errored fast.
      timeout: failures.some((f) => f.timeout),
    };
  }
}

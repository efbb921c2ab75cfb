import type { PostSource, SourceResult } from '../interface.ts';
import { fetchUpstreamJson } from '../upstream-fetch.ts';
import { normalizeFxTwitter } from './normalize.ts';

export class FxTwitterSource implements PostSource {
  readonly name = 'fxtwitter' as const;

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async fetchPost(id: string): Promise<SourceResult> {
    const answer = await fetchUpstreamJson(new URL(`${this.baseUrl}/status/${id}`), this.timeoutMs);
    if (!answer.ok) {
      // A 404 page that is not JSON still says "no such post".
      if (answer.status === 404) return { kind: 'not_found', detail: 'FxTwitter: 404' };
      return {
        kind: 'failed',
        detail: `FxTwitter: ${answer.detail}`,
        timeout: answer.timeout,
        status: answer.status,
        code: answer.code,
      };
    }
    if (answer.status === 429 || answer.status >= 500) {
      return { kind: 'failed', detail: `FxTwitter: HTTP ${answer.status}`, timeout: false, status: answer.status };
    }
    const parsed = normalizeFxTwitter(answer.status, answer.json);
    return parsed.kind === 'failed' ? { ...parsed, timeout: false, status: answer.status } : parsed;
  }
}

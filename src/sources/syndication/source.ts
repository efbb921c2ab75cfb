import type { PostSource, SourceResult } from '../interface.ts';
import { fetchUpstreamJson } from '../upstream-fetch.ts';
import { normalizeSyndication } from './normalize.ts';
import { syndicationToken } from './token.ts';

export class SyndicationSource implements PostSource {
  readonly name = 'syndication' as const;

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async fetchPost(id: string): Promise<SourceResult> {
    const url = new URL(`${this.baseUrl}/tweet-result`);
    url.searchParams.set('id', id);
    url.searchParams.set('lang', 'en');
    url.searchParams.set('token', syndicationToken(id));
    const answer = await fetchUpstreamJson(url, this.timeoutMs);
    // The endpoint answers 404 (often with an HTML page or an empty body) for posts it will not show.
    if (answer.status === 404) return { kind: 'not_found', detail: 'syndication: 404' };
    if (!answer.ok) {
      return {
        kind: 'failed',
        detail: `syndication: ${answer.detail}`,
        timeout: answer.timeout,
        status: answer.status,
        code: answer.code,
      };
    }
    if (answer.status === 429 || answer.status >= 400) {
      return { kind: 'failed', detail: `syndication: HTTP ${answer.status}`, timeout: false, status: answer.status };
    }
    const parsed = normalizeSyndication(answer.json);
    if (parsed.kind === 'malformed')
      return { kind: 'failed', detail: `syndication: ${parsed.detail}`, timeout: false, status: answer.status };
    return parsed;
  }
}

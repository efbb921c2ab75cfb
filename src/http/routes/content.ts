import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { renderMarkdownOnce } from '../../markdown/memo.ts';
import { DEFAULT_MARKDOWN_OPTIONS, type MarkdownOptions } from '../../markdown/render.ts';
import type { PostOutcome } from '../../sources/interface.ts';
import { parsePostId } from '../../sources/post-id.ts';
import { authorizeFirst, type Meter, type MeteredWork, probeMetered, quotaExceeded, runMetered } from '../metered.ts';
import { cachedPost, describeBadPostId, requirePost, requirePostId } from '../post-lookup.ts';
import { maskKeys, ProblemError, type ProblemCode } from '../problem.ts';
import { readBoolean, rejectUnknownQuery } from '../query.ts';
import { PRIVATE_SHORT_CACHE, varyOnEncoding } from '../response-headers.ts';
import {
  bulkContentSchema,
  contentSchema,
  MARKDOWN_OPTION_NAMES as OPTION_NAMES,
  MAX_BULK_IDS as MAX_IDS,
} from '../schemas/content.ts';
import { assertSchemaValid, documented } from '../schemas/validation.ts';

// Enough to fetch 100 ids in a few upstream round trips without flooding the sources.
const FETCH_CONCURRENCY = 32;

function readOptions(query: unknown, postInPath?: string): MarkdownOptions {
  rejectUnknownQuery(query, OPTION_NAMES, postInPath);
  return {
    includeStats: readBoolean(query, 'includeStats', true),
    includeMedia: readBoolean(query, 'includeMedia', true),
    includeQuoted: readBoolean(query, 'includeQuoted', true),
  };
}

// `input` is what the caller sent, when it differs from the normalized `tweetId`.
type BulkItem =
  | { tweetId: string; input?: string; markdown: string; success: true }
  | { tweetId: string; input?: string; success: false; error: { code: ProblemCode; message: string } };

function readBulkBody(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ProblemError('invalid_body', 'The body must be a JSON object like {"tweetIds": ["20"]}.');
  }
  // As with the query, a field that would be silently ignored is refused: `includeStats: false`
  // in the body would otherwise answer with the counts, and charge for them.
  const unknown = Object.keys(body).find((name) => name !== 'tweetIds');
  if (unknown !== undefined) {
    const name = unknown.length > 64 ? `${unknown.slice(0, 64)}…` : unknown;
    const option = OPTION_NAMES.find((o) => o.toLowerCase() === unknown.toLowerCase());
    throw new ProblemError(
      'invalid_body',
      option
        ? `"${name}" is a query parameter here, not a body field: POST /api/v1/content/tweets?${option}=false.`
        : `Unknown body field "${name}": the body holds only "tweetIds" (the options ${OPTION_NAMES.join(', ')} are query parameters).`,
    );
  }
  const ids = (body as { tweetIds?: unknown }).tweetIds;
  if (!Array.isArray(ids)) throw new ProblemError('invalid_body', '"tweetIds" must be an array of post id strings.');
  if (ids.length === 0) throw new ProblemError('invalid_body', '"tweetIds" must hold at least one id.');
  if (ids.length > MAX_IDS)
    throw new ProblemError('too_many_ids', `At most ${MAX_IDS} ids per request; got ${ids.length}.`);
  const bad = ids.findIndex((x) => typeof x !== 'string');
  if (bad >= 0) {
    // A post id as a JSON number has already lost its last digits (ids pass 2^53): say why a
    // string is asked for, since the number a client sent can no longer be shown.
    const why =
      typeof ids[bad] === 'number'
        ? ', not a number: post ids are too long for JSON numbers, which lose their last digits ("20", not 20)'
        : '';
    throw new ProblemError('invalid_body', `"tweetIds[${bad}]" must be a string${why}.`);
  }
  return ids as string[];
}

async function mapBounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return out;
}

function failureOf(
  outcome: Exclude<PostOutcome, { kind: 'found' }>,
  id: string,
): { code: ProblemCode; message: string } {
  return outcome.kind === 'not_found'
    ? { code: 'post_not_found', message: `Post ${id} does not exist or is not public.` }
    : {
        code: 'upstream_unavailable',
        message: outcome.timeout
          ? `The post sources timed out for post ${id}.`
          : `No post source could deliver post ${id}.`,
      };
}

/**
 * Charges one credit per distinct post delivered, in request order: credits are reserved for as
 * many pending ids as they cover, failures are refunded, and refunded credits go to the next ids.
 */
async function fetchCharged(
  c: Container,
  meter: Meter,
  ids: string[],
): Promise<Map<string, PostOutcome | 'quota_exceeded'>> {
  const results = new Map<string, PostOutcome | 'quota_exceeded'>();
  const pending = [...ids];
  let firstRound = true;
  while (pending.length > 0) {
    const reservation = await meter.reserve(pending.length, true);
    if (!reservation) {
      if (firstRound) throw quotaExceeded(c, meter.caller);
      for (const id of pending.splice(0)) results.set(id, 'quota_exceeded');
      break;
    }
    firstRound = false;
    const batch = pending.splice(0, reservation.granted);
    const outcomes = await mapBounded(batch, FETCH_CONCURRENCY, (id) => c.posts.getPost(id));
    for (const [i, id] of batch.entries()) results.set(id, outcomes[i]);
    const failed = outcomes.filter((o) => o.kind !== 'found').length;
    if (failed > 0) await meter.refund(reservation, failed);
  }
  return results;
}

export function registerContentRoutes(app: FastifyInstance, c: Container): void {
  // Only JSON bodies: anything else is 415 before it reaches a handler.
  app.removeContentTypeParser('text/plain');

  const single = async (request: FastifyRequest, reply: FastifyReply) => {
    let id = '';
    let options: MarkdownOptions = DEFAULT_MARKDOWN_OPTIONS;
    const content: MeteredWork<string> = {
      style: 'content',
      endpoint: 'content',
      cost: 1,
      validate: () => {
        const postInPath = (request.params as { '*'?: string })['*'];
        options = readOptions(request.query, postInPath);
        id = requirePostId(postInPath);
        assertSchemaValid(request);
      },
      inHand: async () => {
        const post = await cachedPost(c, id);
        return post && renderMarkdownOnce(post, options);
      },
      work: async () => renderMarkdownOnce(await requirePost(c, id), options),
      probe: async () => {
        await cachedPost(c, id);
      },
    };
    const markdown = request.method === 'HEAD' ? undefined : await runMetered(c, request, reply, content);
    if (markdown === undefined) await probeMetered(c, request, reply, content);
    const type = 'text/markdown; charset=utf-8';
    return varyOnEncoding(reply.type(type), type).header('Cache-Control', PRIVATE_SHORT_CACHE).send(markdown);
  };
  // The wildcard also accepts post URLs that were not URL-encoded; without an id the answer is 400.
  // HEAD is its own hidden route: the document has one operation per path and method.
  app.route({
    method: 'GET',
    url: '/api/v1/content/*',
    exposeHeadRoute: false,
    ...documented(contentSchema),
    handler: single,
  });
  app.route({
    method: 'HEAD',
    url: '/api/v1/content/*',
    schema: { hide: true },
    config: { answersHead: true },
    handler: single,
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/v1/content',
    schema: { hide: true },
    config: { answersHead: true },
    handler: single,
  });

  // The key is checked before the body is read: no key is 401 whatever the body.
  app.post(
    '/api/v1/content/tweets',
    { ...documented(bulkContentSchema), onRequest: authorizeFirst(c, 'content') },
    async (request, reply) => {
      let requested: string[] = [];
      let options: MarkdownOptions = DEFAULT_MARKDOWN_OPTIONS;
      const results = await runMetered(c, request, reply, {
        style: 'content',
        endpoint: 'content_bulk',
        cost: 0,
        validate: () => {
          options = readOptions(request.query);
          requested = readBulkBody(request.body);
          assertSchemaValid(request);
        },
        work: async (meter) => {
          const parsed = requested.map((raw) => ({ raw, parsed: parsePostId(raw) }));
          const distinct = [...new Set(parsed.flatMap((p) => (p.parsed.ok ? [p.parsed.id] : [])))];
          const outcomes = distinct.length ? await fetchCharged(c, meter, distinct) : new Map();
          return parsed.map(({ raw, parsed: p }): BulkItem => {
            if (!p.ok)
              return {
                tweetId: maskKeys(raw),
                success: false,
                error: { code: 'invalid_post_id', message: describeBadPostId(maskKeys(raw), p.reason, true) },
              };
            // The normalized id, as the single endpoints answer; what was sent too when it differs.
            const echo = p.id === raw ? { tweetId: p.id } : { tweetId: p.id, input: maskKeys(raw) };
            const o = outcomes.get(p.id)!;
            if (o === 'quota_exceeded') {
              return {
                ...echo,
                success: false,
                error: { code: 'quota_exceeded', message: 'No credits left for this id.' },
              };
            }
            if (o.kind === 'found') return { ...echo, markdown: renderMarkdownOnce(o.post, options), success: true };
            return { ...echo, success: false, error: failureOf(o, p.id) };
          });
        },
      });
      const successful = results.filter((r) => r.success).length;
      return reply
        .header('Cache-Control', 'no-store')
        .send({ results, total: results.length, successful, failed: results.length - successful });
    },
  );
}

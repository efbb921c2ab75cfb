import type { Container } from '../container.ts';
import type { PostOutcome } from '../sources/interface.ts';
import type { Post } from '../sources/post.ts';
import { NOT_ID_OR_URL, parsePostId } from '../sources/post-id.ts';
import { ProblemError } from './problem.ts';

/** What every invalid_post_id answer ends with: what the caller should send instead. */
const HINT =
  'Send a post id (1 to 19 digits, e.g. 1900000000000000001) or a post URL such as https://x.com/<user>/status/<id>';

/**
 * Why `raw` is not a post id, then what to send. In a path a URL's own `?` would end it, so it
 * must be URL-encoded; in a JSON body (`inBody`) it is sent as it is.
 */
export function describeBadPostId(raw: string, reason: string, inBody = false): string {
  const lead = raw.trim() ? `"${raw.slice(0, 100)}" is not a post id or post URL` : '';
  const why = !lead ? upperFirst(reason) : reason === NOT_ID_OR_URL ? '' : `: ${reason}`;
  return `${lead}${why}. ${HINT}${inBody ? '.' : ', URL-encoded.'}`;
}

/** The id from a path segment, or a 400 invalid_post_id saying why not. */
export function requirePostId(raw: string | undefined): string {
  const parsed = parsePostId(raw ?? '');
  if (!parsed.ok) throw new ProblemError('invalid_post_id', describeBadPostId(raw ?? '', parsed.reason));
  return parsed.id;
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The post when the cache holds it, with no upstream request; undefined when it is not cached. A
 * post cached as missing is the 404 at once, before anything is reserved.
 */
export async function cachedPost(c: Container, id: string): Promise<Post | undefined> {
  const hit = await c.posts.getCached(id);
  return hit ? postOrProblem(hit, id) : undefined;
}

/** Loads a post or throws the matching problem (404 / 502 / 504). */
export async function requirePost(c: Container, id: string): Promise<Post> {
  return postOrProblem(await c.posts.getPost(id), id);
}

function postOrProblem(outcome: PostOutcome, id: string): Post {
  switch (outcome.kind) {
    case 'found':
      return outcome.post;
    case 'not_found':
      throw new ProblemError(
        'post_not_found',
        `Post ${id} does not exist or is not public (deleted, protected, age-restricted or its author suspended).`,
      );
    case 'unavailable':
      throw outcome.timeout
        ? new ProblemError('upstream_timeout', `The post sources did not answer in time for post ${id}; try again.`)
        : new ProblemError('upstream_unavailable', `No post source could deliver post ${id} right now; try again.`);
  }
}

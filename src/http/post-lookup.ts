import type { Container } from '../container.ts';
import type { PostOutcome } from '../sources/interface.ts';
import type { Post } from '../sources/post.ts';
import { parsePostId } from '../sources/post-id.ts';
import { ProblemError } from './problem.ts';

/** What every invalid_post_id answer ends with: what the caller should send instead. */
export const POST_ID_HINT =
  'Send a post id (1 to 19 digits, e.g. 1900000000000000001) or a post URL such as https://x.com/<user>/status/<id>, URL-encoded.';

/** The id from a path segment, or a 400 invalid_post_id saying why not. */
export function requirePostId(raw: string | undefined): string {
  const parsed = parsePostId(raw ?? '');
  if (!parsed.ok) {
    const given = raw ? `"${raw.slice(0, 100)}" is not a post id or post URL: ` : '';
    throw new ProblemError('invalid_post_id', `${given}${upperFirst(parsed.reason, !given)}. ${POST_ID_HINT}`);
  }
  return parsed.id;
}

function upperFirst(text: string, yes: boolean): string {
  return yes ? text.charAt(0).toUpperCase() + text.slice(1) : text;
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

import type { Post } from '../sources/post.ts';
import { renderMarkdown, type MarkdownOptions } from './render.ts';

// The in-process post cache hands out the same Post object until the post expires, so Markdown
// made from it is kept beside it: keyed by the object, nothing is hashed and the entry goes when
// the post does. Posts read from Redis are new objects each time and are simply rendered.
const memo = new WeakMap<Post, Map<string, string>>();

/** renderMarkdown(), once per post object and option set. Posts are never modified after normalizing. */
export function renderMarkdownOnce(post: Post, options: MarkdownOptions): string {
  const key = `${+options.includeStats}${+options.includeMedia}${+options.includeQuoted}`;
  let byOptions = memo.get(post);
  if (!byOptions) memo.set(post, (byOptions = new Map()));
  let markdown = byOptions.get(key);
  if (markdown === undefined) byOptions.set(key, (markdown = renderMarkdown(post, options)));
  return markdown;
}

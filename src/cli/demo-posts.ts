// `postshot demo --posts DIR`: the user's own posts, laid out as the package's samples/. Each is
// asked of the demo's own service before the demo says it is ready, so a post that will not
// render is named at start with the service's reason, not met later as a 404.
import fs from 'node:fs';
import path from 'node:path';
import { FIXTURE_FILE, listFixtureFiles, listFixtureIds } from '../sources/fixture-server.ts';
import { normalizeFxTwitter } from '../sources/fxtwitter/normalize.ts';
import type { PostOutcome } from '../sources/interface.ts';
import { parsePostId } from '../sources/post-id.ts';
import { normalizeSyndication } from '../sources/syndication/normalize.ts';
import { CliError } from './index.ts';

type Kind = 'fxtwitter' | 'syndication';

export interface OwnPosts {
  root: string;
  /** Every id the folder holds a body for. */
  held: string[];
  files: Record<Kind, Map<string, string>>;
  /** Files beside the posts that are not named `<id>.json`, so never served. */
  misnamed: string[];
}

function listMisnamed(root: string): string[] {
  return (['fxtwitter', 'syndication'] as const).flatMap((kind) => {
    const dir = path.join(root, 'upstream', kind);
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
    // Hidden files (.DS_Store) and folders are not meant as posts.
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((f) => f.isFile() && !f.name.startsWith('.') && !FIXTURE_FILE.test(f.name))
      .map((f) => `upstream/${kind}/${f.name}`);
  });
}

/**
 * What is wrong with one recorded body, read as its source reads it, or null: the service's
 * answer says only how the last source failed, which is seldom the file the user got wrong.
 */
function describeBody(kind: Kind, file: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  const parsed = kind === 'fxtwitter' ? normalizeFxTwitter(200, body) : normalizeSyndication(body);
  if (parsed.kind === 'found') return null;
  return parsed.kind === 'not_found' ? `says the post is not found (${parsed.detail})` : parsed.detail;
}

/** The folder's post ids, or a CliError when it is no folder or holds no post files. */
export function readOwnPosts(dir: string): OwnPosts {
  const root = path.resolve(dir);
  if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory())
    throw new CliError(`--posts ${dir}: no such folder`);
  const files = listFixtureFiles(root);
  const held = listFixtureIds(files);
  const misnamed = listMisnamed(root);
  if (held.length === 0)
    throw new CliError(
      `--posts ${dir}: no posts in it (expected upstream/fxtwitter/<id>.json or upstream/syndication/<id>.json${misnamed.length ? `; found ${misnamed.join(', ')}` : ''})`,
    );
  return { root, held, files, misnamed };
}

/**
 * Splits the folder's posts into those the service draws and a line for each one it does not,
 * with its reason: the service's own answer (FxTwitter first, syndication when that fails, the
 * body size cap), so the check cannot disagree with a later request.
 */
export async function checkOwnPosts(
  own: OwnPosts,
  getPost: (id: string) => Promise<PostOutcome>,
): Promise<{ ids: string[]; problems: string[]; misfiled: string[] }> {
  const ids: string[] = [];
  // A body copied from another post keeps that post's id, which its card and Markdown link to.
  const misfiled: string[] = [];
  const problems = own.misnamed.map((file) => `${file}: not named <post id>.json, so never served`);
  for (const id of own.held) {
    const parsed = parsePostId(id);
    if (!parsed.ok) {
      problems.push(`${id}: the file name is not a post id (${parsed.reason})`);
      continue;
    }
    const outcome = await getPost(id);
    if (outcome.kind === 'found') {
      ids.push(id);
      if (outcome.post.id !== id)
        misfiled.push(
          `${id} holds post ${outcome.post.id}: its card and Markdown link to that post; set the id in the file to ${id}, or name the file ${outcome.post.id}.json`,
        );
      continue;
    }
    const why = (['fxtwitter', 'syndication'] as const).flatMap((kind) => {
      const file = own.files[kind].get(id);
      const problem = file && describeBody(kind, file);
      return problem ? [`${path.relative(own.root, file)}: ${problem}`] : [];
    });
    const answer = `${outcome.kind === 'not_found' ? 'not found' : 'unavailable'} (${outcome.detail})`;
    problems.push(`${id}: ${[answer, ...why].join('; ')}`);
  }
  return { ids, problems, misfiled };
}

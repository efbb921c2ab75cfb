// `postshot demo --posts DIR`: the user's own posts, laid out as the package's samples/. Each file
// is read as the service will read it, so a broken one is named at start with the reason, not
// met later as a 404 that says the post does not exist.
import fs from 'node:fs';
import path from 'node:path';
import { fixtureFiles } from '../sources/fixture-server.ts';
import { normalizeFxTwitter } from '../sources/fxtwitter/normalize.ts';
import { normalizeSyndication } from '../sources/syndication/normalize.ts';
import { CliError } from './index.ts';

export interface OwnPosts {
  root: string;
  /** Ids of the posts that render. */
  ids: string[];
  /** Every id the folder holds a body for, those that do not render too. */
  held: string[];
  /** One line per file that will not render: its path in the folder and why. */
  problems: string[];
}

/** Why the service will not draw a recorded body, or null when it will. */
function problemWith(kind: 'fxtwitter' | 'syndication', id: string, file: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  const parsed = kind === 'fxtwitter' ? normalizeFxTwitter(200, body) : normalizeSyndication(body);
  if (parsed.kind === 'not_found') return `answers "not found" (${parsed.detail})`;
  if (parsed.kind !== 'found') return parsed.detail;
  if (parsed.post.id !== id) return `holds post ${parsed.post.id}, not ${id}`;
  return null;
}

/** The posts in `dir`, or a CliError when it is no folder or none of its posts would render. */
export function readOwnPosts(dir: string): OwnPosts {
  const root = path.resolve(dir);
  if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory())
    throw new CliError(`--posts ${dir}: no such folder`);
  const files = fixtureFiles(root);
  const ids = [...new Set([...files.fxtwitter.keys(), ...files.syndication.keys()])].sort();
  if (ids.length === 0)
    throw new CliError(
      `--posts ${dir}: no posts in it (expected upstream/fxtwitter/<id>.json or upstream/syndication/<id>.json)`,
    );
  const problems: string[] = [];
  const good = ids.filter((id) => {
    // The service asks FxTwitter first and syndication when that fails: one readable body is enough.
    const found = (['fxtwitter', 'syndication'] as const).flatMap((kind) => {
      const file = files[kind].get(id);
      if (!file) return [];
      const problem = problemWith(kind, id, file);
      return [{ where: path.relative(root, file), problem }];
    });
    if (found.some((f) => f.problem === null)) return true;
    for (const f of found) problems.push(`${f.where}: ${f.problem}`);
    return false;
  });
  if (good.length === 0)
    throw new CliError(`--posts ${dir}: none of its posts would render:\n  ${problems.join('\n  ')}`);
  return { root, ids: good, held: ids, problems };
}

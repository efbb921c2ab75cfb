import fs from 'node:fs';
import type { Config } from '../config.ts';
import { createRenderOnly } from '../container.ts';
import { OPTION_NAMES, OptionError, parseOptions } from '../render/options.ts';
import { parsePostId } from '../sources/post-id.ts';
import { CliError, type CliIo, flagName } from './index.ts';

/**
 * `postshot render <id|url> [--width 400 --aspect-ratio 4:5 ...]`: fetches through the configured
 * sources and writes the card. The flags are the screenshot options (options.ts), kebab-case,
 * read like query values; only the format defaults differently (png). No account, no charge.
 */
export async function runRenderCommand(
  config: Readonly<Config>,
  args: string[],
  flags: Record<string, string | boolean | undefined>,
  io: CliIo,
): Promise<number> {
  if (!args[0]) throw new CliError('missing the post id: postshot render <id|url> [-o FILE] [--OPTION VALUE ...]');
  if (args.length > 1) throw new CliError(`one post at a time: "${args[1]}" is left over (postshot render <id|url>)`);
  const parsed = parsePostId(args[0]);
  if (!parsed.ok) throw new CliError(`not a post id or URL: ${parsed.reason}`);
  const raw: Record<string, unknown> = { format: 'png' };
  for (const name of OPTION_NAMES) if (flags[flagName(name)] !== undefined) raw[name] = flags[flagName(name)];
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(raw);
  } catch (err) {
    if (err instanceof OptionError)
      throw new CliError(err.message.replace(`Parameter "${err.option}"`, `--${flagName(err.option)}`));
    throw err;
  }
  // Only the sources and the renderer: a one-off card opens no database and writes no data dir.
  const c = createRenderOnly(config);
  try {
    const outcome = await c.posts.getPost(parsed.id);
    if (outcome.kind === 'not_found') throw new CliError(`post ${parsed.id} not found: ${outcome.detail}`);
    if (outcome.kind === 'unavailable') throw new CliError(`post sources unavailable: ${outcome.detail}`);
    const rendered = await c.renderer.render(outcome.post, options).catch((err: unknown) => {
      throw err instanceof OptionError ? new CliError(err.message) : err;
    });
    const file = flags.output && typeof flags.output === 'string' ? flags.output : `${parsed.id}.${options.format}`;
    if (file === '-') process.stdout.write(rendered.bytes);
    else {
      try {
        fs.writeFileSync(file, rendered.bytes);
      } catch (err) {
        // A path that cannot be written is the caller's to fix, said in one line like any other.
        throw new CliError(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
      io.out(`wrote ${file} (${rendered.bytes.length} bytes, ${options.format}, ${options.theme})`);
    }
    return 0;
  } finally {
    await c.close();
  }
}

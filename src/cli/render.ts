import fs from 'node:fs';
import type { Config } from '../config.ts';
import { createContainer } from '../container.ts';
import type { RenderFormat } from '../render/renderer.ts';
import type { ThemeName } from '../render/theme.ts';
import { parsePostId } from '../sources/post-id.ts';
import { CliError, type CliIo } from './index.ts';

/** `postshot render <id|url>`: fetches through the configured sources and writes the card. No account, no charge. */
export async function runRenderCommand(
  config: Readonly<Config>,
  args: string[],
  flags: { format?: string; theme?: string; output?: string },
  io: CliIo,
): Promise<number> {
  const parsed = parsePostId(args[0] ?? '');
  if (!parsed.ok) throw new CliError(`not a post id or URL: ${parsed.reason}`);
  const format = (flags.format ?? 'png') as RenderFormat;
  if (!['png', 'svg', 'html'].includes(format))
    throw new CliError(`--format must be png, svg or html, got "${format}"`);
  const theme = (flags.theme ?? 'light') as ThemeName;
  if (!['light', 'dark'].includes(theme)) throw new CliError(`--theme must be light or dark, got "${theme}"`);
  const c = await createContainer({ ...config, logLevel: 'silent', renderWorkers: 1 });
  try {
    const outcome = await c.posts.getPost(parsed.id);
    if (outcome.kind === 'not_found') throw new CliError(`post ${parsed.id} not found: ${outcome.detail}`);
    if (outcome.kind === 'unavailable') throw new CliError(`post sources unavailable: ${outcome.detail}`);
    const rendered = await c.renderer.render(outcome.post, { format, theme });
    const file = flags.output ?? `${parsed.id}.${format}`;
    if (file === '-') process.stdout.write(rendered.bytes);
    else {
      fs.writeFileSync(file, rendered.bytes);
      io.out(`wrote ${file} (${rendered.bytes.length} bytes, ${format}, ${theme})`);
    }
    return 0;
  } finally {
    await c.close();
  }
}

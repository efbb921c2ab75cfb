import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { OPTION_NAMES } from '../render/options.ts';
import { runAccountsCommand, runKeysCommand, runUsageCommand } from './accounts.ts';

/** `aspectRatio` → `aspect-ratio`: every render option is a CLI flag of that name. */
export const flagName = (option: string) => option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export const USAGE = `postshot — X posts as screenshots and Markdown, metered per API key

Usage:
  postshot serve                         start the HTTP API (default of npm start)
  postshot demo [--posts DIR]            offline demo: fixture upstream + demo account; DIR adds
                                         your own posts, laid out as the package's samples/
  postshot accounts create --email E [--plan free|pro|pro_plus|business] [--json]
  postshot accounts list [--json]
  postshot accounts show ID [--json]
  postshot accounts set-plan ID PLAN
  postshot keys create ACCOUNT_ID [--name NAME] [--json]
  postshot keys list ACCOUNT_ID [--json]
  postshot keys revoke KEY_ID
  postshot usage ACCOUNT_ID [--json]
  postshot render <id|url> [-o FILE] [--OPTION VALUE ...]
      options as for GET /api/v1/screenshot (README), kebab-case; --format defaults to png:
      ${OPTION_NAMES.map((n) => `--${flagName(n)}`).join(' ')}
  postshot openapi                       print the OpenAPI 3.1 document (as GET /openapi.json)
  postshot mcp --url URL --api-key KEY   stdio MCP server forwarding to the service at URL

Configuration comes from environment variables (see README).`;

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** A refusal the CLI prints as one line and exits 1 on (bad id, bad plan, ...). */
export class CliError extends Error {}

const CLI_OPTIONS = {
  json: { type: 'boolean' },
  email: { type: 'string' },
  plan: { type: 'string' },
  name: { type: 'string' },
  ...Object.fromEntries(OPTION_NAMES.map((n) => [flagName(n), { type: 'string' as const }])),
  output: { type: 'string', short: 'o' },
  url: { type: 'string' },
  'api-key': { type: 'string' },
  posts: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseCliArgs(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, options: CLI_OPTIONS });
}

/**
 * parseArgs' refusal as one line: an unknown flag is named, with the flag it most likely meant
 * (`--aspectRatio` → `--aspect-ratio`: the query's camelCase is the usual slip).
 */
function describeArgsError(err: Error & { code?: string }): string {
  const unknown = /^Unknown option '([^']+)'/.exec(err.message)?.[1];
  if (err.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || !unknown)
    return `${err.message.split('\n')[0]} (see postshot --help)`;
  const meant = suggestFlag(unknown);
  return `unknown option ${unknown}${meant ? `; did you mean --${meant}?` : ''} (see postshot --help)`;
}

function suggestFlag(given: string): string | undefined {
  const bare = given.replace(/^-+/, '').split('=')[0];
  const known = Object.keys(CLI_OPTIONS);
  const kebab = flagName(bare);
  return [kebab, kebab.toLowerCase(), bare.toLowerCase()].find((name) => known.includes(name));
}

export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo = defaultIo): Promise<number> {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(argv);
  } catch (err) {
    io.err(`postshot: ${describeArgsError(err as Error)}`);
    return 2;
  }
  const [command = 'help', ...rest] = parsed.positionals;
  if (parsed.values.help || command === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (command === 'mcp') {
    // Needs no configuration of its own: it only talks to a running service.
    const { runMcpForwarder } = await import('./mcp.ts');
    try {
      return await runMcpForwarder(parsed.values, io, env);
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      io.err(`postshot: ${err.message}`);
      return 1;
    }
  }
  let config: Readonly<Config>;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err(`postshot: invalid configuration: ${err.message}`);
      return 1;
    }
    throw err;
  }
  try {
    switch (command) {
      case 'serve': {
        const { serve } = await import('./serve.ts');
        return await serve(config, io);
      }
      case 'demo': {
        const { runDemo } = await import('./demo.ts');
        return await runDemo(config, io, { posts: parsed.values.posts });
      }
      case 'accounts':
        return await runAccountsCommand(config, rest, parsed.values, io);
      case 'keys':
        return await runKeysCommand(config, rest, parsed.values, io);
      case 'usage':
        return await runUsageCommand(config, rest, parsed.values, io);
      case 'openapi': {
        const { runOpenApiCommand } = await import('./openapi.ts');
        return await runOpenApiCommand(config, io);
      }
      case 'render': {
        const { runRenderCommand } = await import('./render.ts');
        return await runRenderCommand(config, rest, parsed.values, io);
      }
      default:
        io.err(`postshot: unknown command "${command}"`);
        io.err(USAGE);
        return 2;
    }
  } catch (err) {
    if (err instanceof CliError) {
      io.err(`postshot: ${err.message}`);
      return 1;
    }
    if (err instanceof ConfigError) {
      io.err(`postshot: invalid configuration: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

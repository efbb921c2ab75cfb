// The one place that reads the environment. Everything else receives a frozen Config.
import { isIP } from 'node:net';
import path from 'node:path';
import type { Plan } from './quota/plans.ts';
import { PLAN_NAMES } from './quota/plans.ts';
import { parseUrl } from './storage/accounts/postgres/url.ts';
import { addressOf } from './util/mail-address.ts';
import { redactUrl } from './util/redact-url.ts';

export type ImageStoreConfig =
  | { kind: 'disk'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      prefix: string;
      endpoint?: string;
      region: string;
      forcePathStyle: boolean;
      publicBaseUrl?: string;
      /** From the standard AWS variables; when absent the SDK's own chain applies (instance roles). */
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
    };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  redisUrl?: string;
  /** Prefix of every Redis key, so several deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  imageStore: ImageStoreConfig;
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  sources: Array<'fxtwitter' | 'syndication'>;
  fxtwitterUrl: string;
  syndicationUrl: string;
  mediaUrl?: string;
  upstreamTimeoutMs: number;
  rateLimits: Record<Plan, number>;
  authFailureLimit: number;
  /** Browser origins allowed to call the API (CORS); `*` for any. Hosted images allow any origin. */
  corsOrigins: readonly string[];
  tlsCert?: string;
  tlsKey?: string;
  requireHttps: boolean;
  trustProxy?: boolean | string | number;
  logLevel: string;
  postCacheTtlMs: number;
  renderTimeoutMs: number;
  renderWorkers: number;
  /** Resident memory a render process may reach before it is killed with its cards. */
  renderMemoryMb: number;
  renderCacheMb: number;
  renderWarmupMs: number;
  mediaMaxBytes: number;
  reservationTimeoutMs: number;
  /** Who may sign in on the account pages: anyone (a new address gets a free account) or existing accounts only. */
  signup: 'open' | 'closed';
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

type Env = Record<string, string | undefined>;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function readUrl(env: Env, name: string, fallback: string | undefined, protocols: string[]): string | undefined {
  // The value is used as written, so it must be what the URL parser read: a blank around it (an
  // .env line's trailing space) is trimmed rather than kept in every link made of it.
  const raw = (env[name] || fallback)?.trim();
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  // An http(s) value is a base that paths are appended to: a blank inside it (which the parser
  // drops), a ?query or a #fragment would end up in or before them (https://host/?a=1/images/…).
  // Other schemes (smtp, redis) are handed to their clients whole.
  if (protocols.includes('http:') && (/[\s\p{Cc}]/u.test(raw) || url.search || url.hash)) {
    throw new ConfigError(name, `must be a base URL without blanks, ?query or #fragment, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function readRateLimits(env: Env): Record<Plan, number> {
  const name = 'POSTSHOT_RATE_LIMITS';
  const limits: Record<Plan, number> = { free: 30, pro: 60, pro_plus: 120, business: 300 };
  const raw = env[name];
  if (!raw) return limits;
  for (const part of raw.split(',')) {
    const m = /^\s*([a-z_]+)\s*=\s*(\d+)\s*$/.exec(part);
    if (!m || !PLAN_NAMES.includes(m[1] as Plan)) {
      throw new ConfigError(name, `expected plan=N pairs for ${PLAN_NAMES.join(', ')}, got "${part}"`);
    }
    const n = Number(m[2]);
    if (n < 1) throw new ConfigError(name, `limit for ${m[1]} must be at least 1`);
    limits[m[1] as Plan] = n;
  }
  return limits;
}

function readImageStore(env: Env, dataDir: string): ImageStoreConfig {
  const name = 'POSTSHOT_IMAGE_STORE';
  const raw = env[name] || 'disk';
  if (raw === 'disk') return { kind: 'disk', dir: path.join(dataDir, 'images') };
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
  if (!m) throw new ConfigError(name, `must be "disk" or "s3://bucket/prefix", got "${raw}"`);
  return {
    kind: 's3',
    bucket: m[1],
    prefix: (m[2] ?? '').replace(/^\/+|\/+$/g, ''),
    endpoint: readUrl(env, 'POSTSHOT_S3_ENDPOINT', undefined, ['http:', 'https:']),
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    forcePathStyle: readBool(env, 'POSTSHOT_S3_FORCE_PATH_STYLE', Boolean(env.POSTSHOT_S3_ENDPOINT)),
    publicBaseUrl: readUrl(env, 'POSTSHOT_S3_PUBLIC_URL', undefined, ['http:', 'https:']),
    credentials:
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            sessionToken: env.AWS_SESSION_TOKEN || undefined,
          }
        : undefined,
  };
}

function readSources(env: Env): Config['sources'] {
  const name = 'POSTSHOT_SOURCES';
  const raw = env[name] || 'fxtwitter,syndication';
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) throw new ConfigError(name, 'must name at least one source');
  for (const s of list) {
    if (s !== 'fxtwitter' && s !== 'syndication') {
      throw new ConfigError(name, `unknown source "${s}" (allowed: fxtwitter, syndication)`);
    }
  }
  return list as Config['sources'];
}

function readCorsOrigins(env: Env): readonly string[] {
  const raw = env.POSTSHOT_CORS_ORIGINS ?? '';
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const origin of list) {
    if (origin === '*') continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    // An origin is scheme://host[:port] exactly: browsers send it so, and a path would never match.
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(
        'POSTSHOT_CORS_ORIGINS',
        `"${origin}" is not an origin like https://app.example.com (scheme, host and port only)`,
      );
    }
  }
  return Object.freeze(list);
}

function readTrustProxy(env: Env): Config['trustProxy'] {
  const raw = env.POSTSHOT_TRUST_PROXY;
  if (raw === undefined || raw === '') return undefined;
  if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  if (/^\d+$/.test(raw)) return Number(raw);
  // Otherwise a list of proxy addresses, as Fastify (proxy-addr) takes it: checked here, or a
  // typo would only surface as a stack trace when the server is built.
  for (const part of raw.split(',').map((p) => p.trim())) {
    if (/^(loopback|linklocal|uniquelocal)$/.test(part)) continue;
    const [ip, bits, ...rest] = part.split('/');
    const family = isIP(ip);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits) || isIP(bits) === 4;
    if (!family || rest.length > 0 || !bitsOk)
      throw new ConfigError(
        'POSTSHOT_TRUST_PROXY',
        `must be true, false, a hop count or a list of IP addresses or subnets, got "${part}"`,
      );
  }
  return raw;
}

/** Validates the environment once; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const port = readInt(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const dataDir = path.resolve(env.POSTSHOT_DATA_DIR || './data');
  const databaseUrl = env.POSTSHOT_DATABASE_URL || `sqlite:${path.join(dataDir, 'postshot.db')}`;
  readDatabaseUrl(databaseUrl);
  const tlsCert = env.POSTSHOT_TLS_CERT || undefined;
  const tlsKey = env.POSTSHOT_TLS_KEY || undefined;
  if (Boolean(tlsCert) !== Boolean(tlsKey)) {
    throw new ConfigError(
      tlsCert ? 'POSTSHOT_TLS_KEY' : 'POSTSHOT_TLS_CERT',
      'TLS needs both POSTSHOT_TLS_CERT and POSTSHOT_TLS_KEY',
    );
  }
  const scheme = tlsCert ? 'https' : 'http';
  const defaultPublicUrl = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // Without POSTSHOT_PUBLIC_URL the public URL is made of HOST: a HOST no URL can hold is HOST's fault.
  if (!env.POSTSHOT_PUBLIC_URL && !URL.canParse(defaultPublicUrl))
    throw new ConfigError('HOST', `must be a host name or an IP address, got "${host}"`);
  const config: Config = {
    port,
    host,
    dataDir,
    databaseUrl,
    redisUrl: readUrl(env, 'POSTSHOT_REDIS_URL', undefined, ['redis:', 'rediss:']),
    redisPrefix: env.POSTSHOT_REDIS_PREFIX || 'postshot:',
    imageStore: readImageStore(env, dataDir),
    publicUrl: readUrl(env, 'POSTSHOT_PUBLIC_URL', defaultPublicUrl, ['http:', 'https:'])!,
    smtpUrl: readUrl(env, 'POSTSHOT_SMTP_URL', undefined, ['smtp:', 'smtps:']),
    mailFrom: readMailFrom(env),
    sources: readSources(env),
    fxtwitterUrl: readUrl(env, 'POSTSHOT_FXTWITTER_URL', 'https://api.fxtwitter.com', ['http:', 'https:'])!,
    syndicationUrl: readUrl(env, 'POSTSHOT_SYNDICATION_URL', 'https://cdn.syndication.twimg.com', ['http:', 'https:'])!,
    mediaUrl: readUrl(env, 'POSTSHOT_MEDIA_URL', undefined, ['http:', 'https:']),
    upstreamTimeoutMs: readInt(env, 'POSTSHOT_UPSTREAM_TIMEOUT_MS', 5000, 50, 120_000),
    rateLimits: readRateLimits(env),
    authFailureLimit: readInt(env, 'POSTSHOT_AUTH_FAILURE_LIMIT', 60, 1, 1_000_000),
    corsOrigins: readCorsOrigins(env),
    tlsCert,
    tlsKey,
    requireHttps: readBool(env, 'POSTSHOT_REQUIRE_HTTPS', env.NODE_ENV === 'production'),
    trustProxy: readTrustProxy(env),
    logLevel: readLogLevel(env),
    postCacheTtlMs: readInt(env, 'POSTSHOT_POST_CACHE_TTL_SECONDS', 300, 0, 86_400) * 1000,
    renderTimeoutMs: readInt(env, 'POSTSHOT_RENDER_TIMEOUT_MS', 10_000, 100, 120_000),
    renderWorkers: readInt(env, 'POSTSHOT_RENDER_WORKERS', 0, 0, 64),
    renderMemoryMb: readInt(env, 'POSTSHOT_RENDER_MEMORY_MB', 1280, 128, 65_536),
    renderCacheMb: readInt(env, 'POSTSHOT_RENDER_CACHE_MB', 64, 0, 4096),
    renderWarmupMs: readInt(env, 'POSTSHOT_RENDER_WARMUP_MS', 3000, 0, 60_000),
    mediaMaxBytes: readInt(env, 'POSTSHOT_MEDIA_MAX_BYTES', 8 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    reservationTimeoutMs: readInt(env, 'POSTSHOT_RESERVATION_TIMEOUT_MS', 120_000, 1000, 3_600_000),
    signup: readSignup(env),
  };
  return Object.freeze(config);
}

/** Checked here, so a URL that cannot work is a configuration error, not a server to wait for. */
function readDatabaseUrl(url: string): void {
  const name = 'POSTSHOT_DATABASE_URL';
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(url))
    throw new ConfigError(name, `must start with sqlite: or postgres://, got "${redactUrl(url)}"`);
  if (url.startsWith('sqlite:')) return;
  try {
    parseUrl(url);
  } catch (err) {
    const why = err instanceof TypeError ? 'is not a valid URL' : (err as Error).message;
    throw new ConfigError(name, `${why}: "${redactUrl(url)}"`);
  }
}

function readLogLevel(env: Env): string {
  const raw = env.POSTSHOT_LOG_LEVEL || 'info';
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(raw))
    throw new ConfigError('POSTSHOT_LOG_LEVEL', `must be one of ${levels.join(', ')}, got "${raw}"`);
  return raw;
}

/** A sender the mail server can take: `name@domain`, or a named one (`postshot <name@domain>`). */
function readMailFrom(env: Env): string {
  const raw = env.POSTSHOT_MAIL_FROM || 'postshot@localhost';
  const address = addressOf(raw);
  if (!/^[^\s\p{Cc}@<>()",;]{1,64}@[A-Za-z0-9.-]{1,255}$/u.test(address))
    throw new ConfigError(
      'POSTSHOT_MAIL_FROM',
      `must be an e-mail address (name@example.com or "postshot <name@example.com>"), got "${raw}"`,
    );
  return raw;
}

function readSignup(env: Env): Config['signup'] {
  const raw = env.POSTSHOT_SIGNUP || 'open';
  if (raw !== 'open' && raw !== 'closed')
    throw new ConfigError('POSTSHOT_SIGNUP', `must be open or closed, got "${raw}"`);
  return raw;
}

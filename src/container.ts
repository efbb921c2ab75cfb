// The composition root: the one place that picks a technology for each capability.
import { pino, type Logger, type DestinationStream } from 'pino';
import { systemClock, type Clock } from './clock.ts';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { abandonedBefore } from './quota/ledger.ts';
import { QuotaService } from './quota/quota.ts';
import { createReadinessCheck, type PartState } from './readiness.ts';
import type { RateLimiter } from './ratelimit/interface.ts';
import { MemoryRateLimiter } from './ratelimit/memory.ts';
import type { AccountStore } from './storage/accounts/interface.ts';
import { openSqliteStore } from './storage/accounts/sqlite/open.ts';
import { openStores } from './storage/open-stores.ts';
import { redactUrl } from './util/redact-url.ts';
import type { PostCache, SingleFlight } from './storage/cache/interface.ts';
import { MemoryPostCache, MemorySingleFlight } from './storage/cache/memory.ts';
import { FxTwitterSource } from './sources/fxtwitter/source.ts';
import type { PostSource } from './sources/interface.ts';
import { createGuardedLookup, guardedLookup } from './net/guarded-lookup.ts';
import { MediaFetcher } from './sources/media.ts';
import { PostService, type UpstreamFailureLog } from './sources/post-service.ts';
import { SyndicationSource } from './sources/syndication/source.ts';
import { Renderer } from './render/render-service.ts';
import { RenderPool } from './render/pool.ts';
import { DiskImageStore } from './storage/images/disk.ts';
import type { ImageStore } from './storage/images/interface.ts';
import path from 'node:path';
import { FileMailer } from './notify/file.ts';
import type { Mailer } from './notify/interface.ts';
import { OutboxSender } from './notify/sender.ts';
import { SmtpMailer } from './notify/smtp.ts';
import { InFlight } from './util/in-flight.ts';
import type { SessionStore } from './account/interface.ts';
import { KeyService } from './account/keys.ts';
import { LastUsedRecorder } from './account/last-used.ts';
import { SessionService } from './account/sessions.ts';
import { SignInService } from './account/sign-in.ts';

/** The account pages' services. */
export interface AccountServices {
  store: SessionStore;
  signIn: SignInService;
  sessions: SessionService;
  keys: KeyService;
  lastUsed: LastUsedRecorder;
}

export interface Container {
  config: Readonly<Config>;
  clock: Clock;
  logger: Logger;
  accounts: AccountStore;
  quota: QuotaService;
  rateLimiter: RateLimiter;
  posts: PostService;
  media: MediaFetcher;
  renderer: Renderer;
  images: ImageStore;
  mailer: Mailer;
  outbox: OutboxSender;
  account: AccountServices;
  /** Metered work in progress; close() waits for it. */
  inFlight: InFlight;
  /** The posts the account pages' curl lines name: ones the configured sources serve. */
  examplePostIds: readonly [string, string];
  checkReadiness(): Promise<Record<string, PartState>>;
  /**
   * Starts background work (refunds of abandoned reservations, the mail sender). `serve` calls it
   * once it listens, with the time it took the data dir's lock (src/storage/data-dir-lock.ts).
   */
  start(options?: { dataDirLockedAt?: number }): Promise<void>;
  /** Waits for in-flight metered work, then closes everything. */
  close(): Promise<void>;
}

export interface ContainerOptions {
  clock?: Clock;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  /** The posts the quickstart's curl lines name: X's first two (20, 21) by default, samples in the demo. */
  examplePostIds?: readonly [string, string];
  /** Nameservers for image hosts' names (tests: one that never answers); the system's when absent. */
  nameservers?: string[];
}

export function createLogger(config: Readonly<Config>, stream?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      // Keys must never reach a log line, whatever serializer or log call is involved.
      redact: {
        paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'apiKey', '*.apiKey', 'req.headers.authorization'],
        censor: '[redacted]',
      },
      // Last line of defence: anything shaped like a key (pasted into a URL, echoed in an error)
      // is masked in the final log line.
      // Sign-in links (psl_) and session cookies (pss_) are masked the same way.
      hooks: { streamWrite: (line: string) => line.replace(/(ps[kls])_[0-9A-Za-z]{4,}/g, '$1_[redacted]') },
    },
    stream,
  );
}

/**
 * The configured account store, made and brought up to date when `create` (a service, or the
 * command that makes an account); otherwise one that is not there yet is refused, not made.
 */
export async function openAccountStore(config: Readonly<Config>, { create = true } = {}): Promise<AccountStore> {
  if (config.databaseUrl.startsWith('sqlite:')) return openSqliteStore(config.databaseUrl, create);
  const { openPostgresStore } = await import('./storage/accounts/postgres/open.ts');
  return openPostgresStore(config.databaseUrl, create);
}

async function openRateLimiter(config: Readonly<Config>, clock: Clock, redis: Redis | null): Promise<RateLimiter> {
  if (!redis) return new MemoryRateLimiter(clock);
  const { RedisRateLimiter } = await import('./ratelimit/redis.ts');
  return new RedisRateLimiter(redis, config.redisPrefix, clock);
}

function createSources(config: Readonly<Config>): PostSource[] {
  return config.sources.map((name) =>
    name === 'fxtwitter'
      ? new FxTwitterSource(config.fxtwitterUrl, config.upstreamTimeoutMs)
      : new SyndicationSource(config.syndicationUrl, config.upstreamTimeoutMs),
  );
}

async function openPostCache(
  config: Readonly<Config>,
  clock: Clock,
  redis: Redis | null,
): Promise<{ cache: PostCache; flight: SingleFlight }> {
  if (!redis) return { cache: new MemoryPostCache(clock), flight: new MemorySingleFlight() };
  const { RedisPostCache, RedisSingleFlight } = await import('./storage/cache/redis.ts');
  // A lock outlives the slowest load: every source timing out, plus a margin.
  const lockMs = config.upstreamTimeoutMs * config.sources.length + 1000;
  return {
    cache: new RedisPostCache(redis, config.redisPrefix),
    flight: new RedisSingleFlight(redis, config.redisPrefix, lockMs),
  };
}

/** One Redis connection per process, shared by the rate limiter, the post cache and single-flight. */
async function openRedis(config: Readonly<Config>): Promise<Redis | null> {
  if (!config.redisUrl) return null;
  const { createRedis } = await import('./storage/redis-client.ts');
  return createRedis(config.redisUrl, config.redisPrefix);
}

async function openImageStore(config: Readonly<Config>): Promise<ImageStore> {
  if (config.imageStore.kind === 'disk') return new DiskImageStore(config.imageStore.dir, config.publicUrl);
  const { S3ImageStore } = await import('./storage/images/s3.ts');
  return new S3ImageStore(config.imageStore, config.publicUrl);
}

/** What `postshot render` needs: the post sources and the renderer; no database, store or mailer. */
export interface RenderOnly {
  posts: PostService;
  renderer: Renderer;
  close(): Promise<void>;
}

/**
 * The post sources and a renderer, for a one-off card drawn outside the service: nothing is
 * opened on disk or over the network but the sources and media, so the command leaves no data
 * dir behind and works wherever it is run.
 */
export function createRenderOnly(config: Readonly<Config>): RenderOnly {
  const posts = new PostService(
    createSources(config),
    new MemoryPostCache(systemClock),
    new MemorySingleFlight(),
    config.postCacheTtlMs,
    () => {},
  );
  const { renderer } = createRendering(config, systemClock, () => {}, { workers: 1, cacheBytes: 0 });
  return { posts, renderer, close: () => renderer.close() };
}

/** The media fetcher and a renderer drawing with it, as the config says; `log` hears failed fetches. */
function createRendering(
  config: Readonly<Config>,
  clock: Clock,
  log: UpstreamFailureLog,
  sizing: { workers: number; cacheBytes: number },
  nameservers?: string[],
): { media: MediaFetcher; renderer: Renderer } {
  // One resolver for both fetchers: c-ares, off the thread pool and bounded (guarded-lookup.ts).
  const lookup = nameservers ? createGuardedLookup({ servers: nameservers }) : guardedLookup;
  const media = new MediaFetcher({
    lookup,
    mediaUrl: config.mediaUrl,
    timeoutMs: config.upstreamTimeoutMs,
    maxBytes: config.mediaMaxBytes,
    clock,
    logFailure: log,
  });
  const renderer = new Renderer(media, {
    timeoutMs: config.renderTimeoutMs,
    memoryMb: config.renderMemoryMb,
    ...sizing,
    clock,
    backgroundImages: {
      lookup,
      mediaUrl: config.mediaUrl,
      timeoutMs: config.upstreamTimeoutMs,
      maxBytes: config.mediaMaxBytes,
    },
  });
  return { media, renderer };
}

export async function createContainer(config: Readonly<Config>, options: ContainerOptions = {}): Promise<Container> {
  const clock = options.clock ?? systemClock;
  const logger = createLogger(config, options.logStream);
  const stores = await openStores(config, logger);
  const accounts = stores.accounts;
  const redis = await openRedis(config);
  const rateLimiter = await openRateLimiter(config, clock, redis);
  const quota = new QuotaService(accounts, clock);
  const { cache, flight } = await openPostCache(config, clock, redis);
  const posts = new PostService(createSources(config), cache, flight, config.postCacheTtlMs, (fields, message) =>
    logger.warn(fields, message),
  );
  const { media, renderer } = createRendering(
    config,
    clock,
    (fields, message) => logger.warn(fields, message),
    {
      workers: config.renderWorkers || RenderPool.defaultSize(),
      cacheBytes: config.renderCacheMb * 1024 * 1024,
    },
    options.nameservers,
  );
  const images = await openImageStore(config);
  const mailDir = path.join(config.dataDir, 'mail');
  const mailer = config.smtpUrl ? new SmtpMailer(config.smtpUrl) : new FileMailer(mailDir);
  const outbox = new OutboxSender(accounts, mailer, clock, logger, config.mailFrom);

  const inFlight = new InFlight();
  const stopping = new AbortController();
  const sessionStore = stores.sessions;
  const lastUsed = new LastUsedRecorder(accounts, clock, logger);
  const account: AccountServices = {
    store: sessionStore,
    lastUsed,
    sessions: new SessionService(sessionStore, accounts, clock),
    keys: new KeyService(accounts, lastUsed, clock),
    signIn: new SignInService({
      accounts,
      store: sessionStore,
      mailer,
      rateLimiter,
      clock,
      logger,
      inFlight,
      signup: config.signup,
      publicUrl: config.publicUrl,
      mailFrom: config.mailFrom,
      stopping: stopping.signal,
    }),
  };
  const closers: Array<() => Promise<void>> = [
    () => renderer.close(),
    () => outbox.stop(),
    () => mailer.close(),
    () => rateLimiter.close(),
    () => cache.close(),
    () => flight.close(),
    async () => redis?.disconnect(),
    () => lastUsed.stop(),
    () => sessionStore.close(),
    () => accounts.close(),
  ];
  const timers: NodeJS.Timeout[] = [];
  let lockedAt: number | null = null;
  const refundAbandoned = async () => {
    const now = clock();
    const server = { lockedAt, storeShared: accounts.sharedByServers };
    const refunded = await accounts.refundAbandoned(abandonedBefore(now, config.reservationTimeoutMs, server), now);
    if (refunded > 0) logger.warn({ refunded }, 'refunded credits of abandoned requests');
  };
  let closed = false;
  const startStoreWork = async () => {
    if (closed) return;
    await refundAbandoned().catch((err) => logger.warn({ err }, 'refund of abandoned requests failed; retried later'));
    if (closed) return;
    const sweep = setInterval(
      () => refundAbandoned().catch((err) => logger.error({ err }, 'refund sweep failed')),
      30_000,
    );
    const expire = setInterval(
      () => sessionStore.deleteExpired(clock()).catch((err) => logger.error({ err }, 'session sweep failed')),
      3600_000,
    );
    for (const t of [sweep, expire]) {
      t.unref();
      timers.push(t);
    }
    outbox.start();
    lastUsed.start();
  };
  const checkReadiness = createReadinessCheck({
    warming: () => renderer.state === 'warming',
    pings: {
      database: () => accounts.ping(),
      images: () => images.ping(),
      ...(config.redisUrl ? { redis: () => cache.ping() } : {}),
    },
  });
  return {
    config,
    clock,
    logger,
    examplePostIds: options.examplePostIds ?? ['20', '21'],
    accounts,
    quota,
    rateLimiter,
    posts,
    media,
    renderer,
    images,
    mailer,
    outbox,
    account,
    inFlight,
    checkReadiness,
    async start(options = {}) {
      // A part down at start is not fatal (requests that need it get 503 until it answers, and
      // /readyz names it), but the operator is told once, by name and address (without password).
      for (const [part, state] of Object.entries(await checkReadiness())) {
        if (state !== 'down') continue;
        const url = part === 'database' ? config.databaseUrl : part === 'redis' ? config.redisUrl : undefined;
        const where = url ? ` (${redactUrl(url)})` : '';
        logger.warn({ part }, `${part} unreachable at start${where}; requests that need it get 503 until it answers`);
      }
      // HTTPS required, yet no TLS here and no proxy trusted to say a request came over HTTPS:
      // every API request would be 403 https_required, telling clients to use an https:// that
      // this process does not serve.
      if (config.requireHttps && !config.tlsCert && !config.trustProxy)
        logger.warn(
          'HTTPS is required (POSTSHOT_REQUIRE_HTTPS, on when NODE_ENV=production) but this service serves plain ' +
            'HTTP and trusts no proxy: every API request will get 403 https_required. Set POSTSHOT_TLS_CERT and ' +
            'POSTSHOT_TLS_KEY, or POSTSHOT_TRUST_PROXY behind a proxy that terminates TLS, or POSTSHOT_REQUIRE_HTTPS=false.',
        );
      // Without SMTP a sign-in link reaches no one unless the operator knows where to look.
      if (!config.smtpUrl)
        logger.info({ dir: mailDir }, `no SMTP server (POSTSHOT_SMTP_URL): e-mails are written to ${mailDir}`);
      lockedAt = options.dataDirLockedAt ?? null;
      // Temp files of image writes a crash cut off would otherwise pile up in the data dir.
      if (lockedAt !== null && images instanceof DiskImageStore)
        void images.removeAbandonedTemps(lockedAt).then(
          (removed) => removed > 0 && logger.info({ removed }, 'removed temp files of image writes cut off by a crash'),
          (err) => logger.warn({ err }, 'could not remove abandoned image temp files'),
        );
      // Work on the stores starts once they are open: at once, or when the database first answers.
      if (stores.isOpen()) await startStoreWork();
      else void stores.opened.then(startStoreWork);
      const started = performance.now();
      void renderer.warmUp(config.renderWarmupMs).then(
        (renders) =>
          renders > 0 &&
          logger.info({ renders, ms: Math.round(performance.now() - started) }, 'render workers warmed up'),
        (err) => logger.warn({ err }, 'render warm-up stopped'),
      );
    },
    async close() {
      closed = true;
      for (const t of timers) clearInterval(t);
      stopping.abort();
      await inFlight.drain();
      for (const close of closers) await close().catch(() => {});
    },
  };
}

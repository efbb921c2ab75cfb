import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisCall } from '../redis-client.ts';
import type { CachedPost, PostCache, SingleFlight } from './interface.ts';
import { MemorySingleFlight } from './memory.ts';

/** Uses the container's shared Redis client; the container closes it. */
export class RedisPostCache implements PostCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async get(id: string): Promise<CachedPost | null> {
    const raw = await redisCall(() => this.redis.get(`${this.prefix}post:${id}`));
    return raw ? (JSON.parse(raw) as CachedPost) : null;
  }

  async set(id: string, value: CachedPost, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    await redisCall(() => this.redis.set(`${this.prefix}post:${id}`, JSON.stringify(value), 'PX', ttlMs));
  }

  async ping(): Promise<void> {
    await redisCall(() => this.redis.ping());
  }

  async close(): Promise<void> {}
}

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * Cross-instance single-flight: one instance takes a short lock and loads; the others poll the
 * cache until the value lands or the lock goes away (then they try to lead themselves). Within
 * one instance, concurrent callers share one promise first.
 */
export class RedisSingleFlight implements SingleFlight {
  private readonly local = new MemorySingleFlight();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly lockMs: number,
  ) {}

  run<T>(key: string, load: () => Promise<T>, waitForOther: () => Promise<T | null>): Promise<T> {
    return this.local.run(key, () => this.lead(key, load, waitForOther));
  }

  private async lead<T>(key: string, load: () => Promise<T>, waitForOther: () => Promise<T | null>): Promise<T> {
    const lockKey = `${this.prefix}lock:${key}`;
    const deadline = Date.now() + this.lockMs;
    for (;;) {
      const token = randomUUID();
      const got = await redisCall(() => this.redis.set(lockKey, token, 'PX', this.lockMs, 'NX'));
      if (got === 'OK') {
        try {
          return await load();
        } finally {
          await this.redis.eval(RELEASE, 1, lockKey, token).catch(() => {});
        }
      }
      // Someone else is loading: wait for their result in the cache.
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        const value = await waitForOther();
        if (value !== null) return value;
        if ((await redisCall(() => this.redis.exists(lockKey))) === 0) break;
      }
      // Their load failed without caching (upstream unavailable) or took too long: load ourselves.
      if (Date.now() >= deadline) return load();
    }
  }

  async close(): Promise<void> {}
}

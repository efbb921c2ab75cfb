import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import { redisCall } from '../storage/redis-client.ts';
import type { RateDecision, RateLimiter } from './interface.ts';

// The GCRA of gcra.ts, run atomically in Redis so every instance shares one budget per key.
// KEYS[1] = key; ARGV = now ms, limit, window ms, consume (1/0). Returns allowed, remaining,
// reset ms, retry ms.
const SCRIPT = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local consume = ARGV[4] == '1'
local interval = window / limit
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
local base = math.max(tat, now)
local nxt = base + interval
local allow_at = nxt - window
if allow_at > now then
  return {0, 0, base - now, allow_at - now}
end
local stored = base
if consume then
  stored = nxt
  redis.call('SET', KEYS[1], tostring(stored), 'PX', math.ceil(stored - now) + 1000)
end
return {1, math.floor((window - (stored - now)) / interval), stored - now, 0}
`;

/** Uses the container's shared Redis client; the container closes it. */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {
    this.redis.defineCommand('postshotGcra', { numberOfKeys: 1, lua: SCRIPT });
  }

  private async step(key: string, limit: number, windowMs: number, consume: boolean): Promise<RateDecision> {
    const [allowed, remaining, resetMs, retryMs] = (await redisCall(() =>
      (this.redis as unknown as { postshotGcra: (...a: unknown[]) => Promise<number[]> }).postshotGcra(
        `${this.prefix}rl:${key}`,
        this.clock(),
        limit,
        windowMs,
        consume ? '1' : '0',
      ),
    )) as number[];
    return {
      allowed: allowed === 1,
      limit,
      remaining: Math.max(0, remaining),
      resetSeconds: Math.ceil(resetMs / 1000),
      retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(retryMs / 1000)),
    };
  }

  hit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    return this.step(key, limit, windowMs, true);
  }

  peek(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    return this.step(key, limit, windowMs, false);
  }

  async close(): Promise<void> {}
}

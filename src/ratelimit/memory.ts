import type { Clock } from '../clock.ts';
import { stepGcra } from './gcra.ts';
import type { RateDecision, RateLimiter } from './interface.ts';

/** In-process limiter for the single-process mode. Entries expire once their bucket is full again. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly tats = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly clock: Clock) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  private step(key: string, limit: number, windowMs: number, consume: boolean): RateDecision {
    const { decision, tat } = stepGcra(this.tats.get(key), this.clock(), limit, windowMs, consume);
    if (consume && decision.allowed) this.tats.set(key, tat);
    return decision;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    return this.step(key, limit, windowMs, true);
  }

  async peek(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    return this.step(key, limit, windowMs, false);
  }

  private sweep(): void {
    const now = this.clock();
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}

import type { RateDecision } from './interface.ts';

/**
 * One GCRA step. `tat` is the stored theoretical arrival time (ms); returns the decision and
 * the new tat to store (unchanged when refused or when only peeking). Shared by the memory
 * limiter; the Redis limiter runs the same arithmetic in Lua.
 */
export function stepGcra(
  tat: number | undefined,
  now: number,
  limit: number,
  windowMs: number,
  consume: boolean,
): { decision: RateDecision; tat: number } {
  const interval = windowMs / limit;
  const base = Math.max(tat ?? now, now);
  const next = base + interval;
  const allowAt = next - windowMs;
  if (allowAt > now) {
    return {
      decision: {
        allowed: false,
        limit,
        remaining: 0,
        resetSeconds: Math.ceil((base - now) / 1000),
        retryAfterSeconds: Math.max(1, Math.ceil((allowAt - now) / 1000)),
      },
      tat: base,
    };
  }
  const stored = consume ? next : base;
  return {
    decision: {
      allowed: true,
      limit,
      remaining: Math.max(0, Math.floor((windowMs - (stored - now)) / interval)),
      resetSeconds: Math.ceil((stored - now) / 1000),
      retryAfterSeconds: 0,
    },
    tat: stored,
  };
}

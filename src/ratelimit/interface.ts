export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the allowance is whole again. */
  resetSeconds: number;
  /** Seconds to wait before the next request can pass; 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Per-key request budget of `limit` requests per `windowMs`, as a GCRA (a token bucket of
 * `limit` tokens refilled evenly over the window), so a full burst is allowed and never more.
 */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateDecision>;
  /** Looks without consuming (used to refuse before work when a budget is already spent). */
  peek(key: string, limit: number, windowMs: number): Promise<RateDecision>;
  close(): Promise<void>;
}

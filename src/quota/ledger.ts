// The ledger's rules, as pure functions: every store executes these decisions and makes none.
// A store reads the rows a rule needs inside its transaction, asks the rule, and writes the answer.
import { thresholdsCrossed } from './thresholds.ts';

/** A charge row as the rules see it. */
export interface ChargeState {
  amount: number;
  refunded: number;
  status: 'pending' | 'committed' | 'refunded' | null;
}

/**
 * Credits granted to a reservation of `amount` with `used` of `limit` taken: all of it or 0, or
 * with `partial` as many as are left (bulk requests process the ids the remaining credits cover).
 */
export function grantCredits(used: number, limit: number, amount: number, partial: boolean): number {
  const available = Math.max(0, limit - used);
  if (partial) return Math.max(0, Math.min(available, amount));
  return available >= amount ? amount : 0;
}

/**
 * The highest `used` a counter may hold for a take of `amount` to fit: stores run the take as one
 * conditional update (`WHERE used <= ceiling`), which is atomic under concurrent callers.
 */
export function takeCeiling(limit: number, amount: number): number {
  return limit - amount;
}

/** A charge whose result is already in hand takes a positive whole amount. */
export function assertChargeable(amount: number): void {
  if (!(amount > 0)) throw new RangeError(`a charge must be positive, got ${amount}`);
}

/**
 * Committing a pending charge: what it becomes and how many credits it adds to `committed`
 * (what was not refunded). Null when there is nothing to do: committing is idempotent.
 */
export function settleCharge(c: ChargeState): { status: 'committed' | 'refunded'; committed: number } | null {
  if (c.status !== 'pending') return null;
  const net = c.amount - c.refunded;
  return net > 0 ? { status: 'committed', committed: net } : { status: 'refunded', committed: 0 };
}

/**
 * Giving back `wanted` credits of a charge (null: all still held). Only a pending charge gives
 * anything back, never more than it still holds; fully given back it becomes `refunded`.
 */
export function splitRefund(
  c: ChargeState,
  wanted: number | null,
): { give: number; refunded: number; status: 'pending' | 'refunded' } | null {
  if (c.status !== 'pending') return null;
  const left = c.amount - c.refunded;
  const give = wanted === null ? left : Math.min(left, wanted);
  if (give <= 0) return null;
  const refunded = c.refunded + give;
  return { give, refunded, status: refunded === c.amount ? 'refunded' : 'pending' };
}

/**
 * Charges pending since before the returned time belong to requests whose process died (kill -9,
 * OOM) and are refunded. Live requests finish long before the reservation timeout. A server that
 * holds the data dir's lock, on a store no other server can use, also owns every charge made
 * before it took the lock: those are its dead predecessor's.
 */
export function abandonedBefore(
  now: number,
  timeoutMs: number,
  server: { lockedAt: number | null; storeShared: boolean },
): number {
  const timedOut = now - timeoutMs;
  return server.lockedAt === null || server.storeShared ? timedOut : Math.max(server.lockedAt, timedOut);
}

/** The quota notices (thresholds in percent) a move of committed credits from `before` to `after` causes. */
export function noticesFor(before: number, after: number, limit: number): number[] {
  return thresholdsCrossed(before, after, limit);
}

import type { Account } from '../storage/accounts/interface.ts';
import { PLANS, type Plan } from './plans.ts';

export interface Period {
  /** Inclusive start, ms since epoch. Also the key of the period's usage counter. */
  start: number;
  /** Exclusive end, ms since epoch; null for a one-time allowance that never resets. */
  end: number | null;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The anchor day in the given month, clamped to the month's length (the 31st becomes the 30th, 28th, ...). */
function anchorDateIn(year: number, month: number, anchorDay: number): number {
  const y = year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  return Date.UTC(y, m, Math.min(anchorDay, daysInMonth(y, m)));
}

/**
 * The quota period containing `now`. Monthly periods begin at 00:00 UTC on the anchor day
 * (the day of month of the account's anchor), so every period of an account has the same day.
 */
export function computePeriod(plan: Plan, anchor: number, now: number): Period {
  if (PLANS[plan].period === 'one_time') return { start: anchor, end: null };
  const a = new Date(anchor);
  const anchorDay = a.getUTCDate();
  const n = new Date(now);
  const year = n.getUTCFullYear();
  let month = n.getUTCMonth();
  let start = anchorDateIn(year, month, anchorDay);
  if (start > now) {
    month -= 1;
    start = anchorDateIn(year, month, anchorDay);
  }
  const end = anchorDateIn(year, month + 1, anchorDay);
  return { start, end };
}

/**
 * An account's current period. The free allowance is one for the life of the account, so it is
 * counted from its creation: a plan change moves the anchor, and keying the allowance by the
 * anchor handed out a fresh one on every free → paid → free cycle.
 */
export function accountPeriod(account: Pick<Account, 'plan' | 'anchor' | 'createdAt'>, now: number): Period {
  const start = PLANS[account.plan].period === 'one_time' ? account.createdAt : account.anchor;
  return computePeriod(account.plan, start, now);
}

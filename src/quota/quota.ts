import type { Clock } from '../clock.ts';
import type { Account, AccountStore, ReserveResult } from '../storage/accounts/interface.ts';
import { accountPeriod } from './period.ts';
import { type Plan, PLANS } from './plans.ts';

export interface Usage {
  plan: Account['plan'];
  limit: number;
  used: number;
  remaining: number;
  periodStart: number;
  periodEnd: number | null;
}

export interface Reservation {
  id: string;
  granted: number;
}

export type ReserveOutcome =
  | { ok: true; reservation: Reservation; usage: Usage }
  | { ok: false; reason: 'quota_exceeded'; usage: Usage };

/** Quota rules over an atomic store: reserve before work, then commit or refund. */
export class QuotaService {
  constructor(
    private readonly store: AccountStore,
    private readonly clock: Clock,
  ) {}

  private usageOf(account: Account, used: number, period = this.periodOf(account)): Usage {
    const limit = PLANS[account.plan].credits;
    return {
      plan: account.plan,
      limit,
      used,
      remaining: Math.max(0, limit - used),
      periodStart: period.start,
      periodEnd: period.end,
    };
  }

  private periodOf(account: Account) {
    return accountPeriod(account, this.clock());
  }

  async usage(account: Account): Promise<Usage> {
    const period = this.periodOf(account);
    return this.usageOf(account, await this.store.getUsed(account.id, period.start), period);
  }

  /**
   * All-or-nothing by default; with `partial` grants what is left (bulk requests process the
   * first ids that the remaining credits cover).
   */
  async reserve(
    account: Account,
    amount: number,
    meta: { requestId: string; endpoint: string; partial?: boolean },
  ): Promise<ReserveOutcome> {
    const { requestId, endpoint, partial = false } = meta;
    return this.take(account, (req) => this.store.reserve({ ...req, amount, partial, requestId, endpoint }));
  }

  /**
   * Reserves and commits `amount` credits at once, all-or-nothing: for a result already in hand
   * (a cached post or render), which cannot fail between the two.
   */
  async charge(
    account: Account,
    amount: number,
    meta: { requestId: string; endpoint: string },
  ): Promise<ReserveOutcome> {
    const { requestId, endpoint } = meta;
    return this.take(account, (req) => this.store.charge({ ...req, amount, requestId, endpoint }));
  }

  /** Runs a store call for the account's current period and reads its result as an outcome. */
  private async take(
    account: Account,
    call: (req: {
      accountId: string;
      periodStart: number;
      limit: number;
      plan: Plan;
      now: number;
    }) => Promise<ReserveResult>,
  ): Promise<ReserveOutcome> {
    const period = this.periodOf(account);
    const result = await call({
      accountId: account.id,
      periodStart: period.start,
      limit: PLANS[account.plan].credits,
      plan: account.plan,
      now: this.clock(),
    });
    const usage = this.usageOf(account, result.used, period);
    if (!result.ok) return { ok: false, reason: 'quota_exceeded', usage };
    return { ok: true, reservation: { id: result.reservationId, granted: result.granted }, usage };
  }

  async commit(reservation: Reservation): Promise<void> {
    await this.store.commit(reservation.id, this.clock());
  }

  /** Gives back `amount` credits (default: all that are still held). Returns how many were given back. */
  async refund(reservation: Reservation, amount: number | null = null): Promise<number> {
    return this.store.refund(reservation.id, amount, this.clock());
  }
}

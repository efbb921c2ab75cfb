import type { Clock } from '../clock.ts';
import type { QuotaService, Usage } from '../quota/quota.ts';
import type { Account, AccountStore, OutboxMessage } from '../storage/accounts/interface.ts';

const DAY = 86_400_000;
/** The chart shows the period, or its last this-many days when it is longer (the free allowance). */
export const CHART_DAYS = 31;

export type EndpointFamily = 'screenshot' | 'content' | 'bulk';

const FAMILY: Record<string, EndpointFamily> = { screenshot: 'screenshot', content: 'content', content_bulk: 'bulk' };

export interface DayBar {
  day: number;
  requests: Record<EndpointFamily, number>;
  credits: number;
}

export interface Overview {
  account: Account;
  usage: Usage;
  days: DayBar[];
  /** Totals over the charted days. */
  totals: Record<EndpointFamily, number>;
  mails: OutboxMessage[];
}

/** What the overview page shows: quota of the current period, requests per day, quota e-mails. */
export async function buildOverview(
  deps: { accounts: AccountStore; quota: QuotaService; clock: Clock },
  account: Account,
): Promise<Overview> {
  const usage = await deps.quota.usage(account);
  const today = Math.floor(deps.clock() / DAY) * DAY;
  const first = Math.max(Math.floor(usage.periodStart / DAY) * DAY, today - (CHART_DAYS - 1) * DAY);
  const rows = await deps.accounts.usagePerDay(account.id, Math.max(first, usage.periodStart));
  const days: DayBar[] = [];
  for (let day = first; day <= today; day += DAY) {
    days.push({ day, requests: { screenshot: 0, content: 0, bulk: 0 }, credits: 0 });
  }
  const totals: Record<EndpointFamily, number> = { screenshot: 0, content: 0, bulk: 0 };
  for (const row of rows) {
    const bar = days[Math.round((row.day - first) / DAY)];
    const family = FAMILY[row.endpoint];
    if (!bar || !family) continue;
    bar.requests[family] += row.requests;
    bar.credits += row.credits;
    totals[family] += row.requests;
  }
  const mails = (await deps.accounts.listOutbox(account.id)).filter((m) => m.periodStart === usage.periodStart);
  return { account, usage, days, totals, mails };
}

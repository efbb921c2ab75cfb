import { escapeHtml } from '../render/html.ts';
import { computePeriod } from '../quota/period.ts';
import { PLANS } from '../quota/plans.ts';
import { addressOf } from '../util/mail-address.ts';
import type { ClaimedMessage, MailMessage } from './interface.ts';

/**
 * The domain a Message-ID is made under: that of the sender's address, whether POSTSHOT_MAIL_FROM is
 * a bare address or names the sender (`postshot <no-reply@example.com>`); `localhost` without one.
 */
export function messageIdDomain(from: string): string {
  const address = addressOf(from);
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1).trim();
  return at !== -1 && /^[A-Za-z0-9.-]+$/.test(domain) ? domain : 'localhost';
}

const PLAN_LABEL: Record<string, string> = { free: 'Free', pro: 'Pro', pro_plus: 'Pro+', business: 'Business' };

/**
 * The headline: the threshold, and the real share when one charge (a bulk request) jumped past it,
 * so that it agrees with the Used line below it.
 */
function composeHeadline(m: ClaimedMessage, plan: string): string {
  if (m.threshold >= 100) return `You have used all of your ${plan} quota`;
  const share = Math.floor((m.used * 100) / m.limit);
  if (share <= m.threshold) return `You have used ${m.threshold}% of your ${plan} quota`;
  return `You have passed ${m.threshold}% of your ${plan} quota: ${share}% is used`;
}

/** A one-time allowance never comes back: its refusals last until an upgrade, not until a reset. */
function composeResetLines(m: ClaimedMessage, plan: string): { resets: string; refused: string } {
  const end = computePeriod(m.plan, m.anchor, m.periodStart).end;
  if (PLANS[m.plan].period === 'one_time' || end === null) {
    return {
      resets: `The ${plan} plan’s ${m.limit.toLocaleString('en-US')} credits are a one-time allowance and do not reset; ask the operator of this service for a paid plan, whose quota is monthly.`,
      refused: 'Requests are refused with 403 quota_exceeded until the account moves to a paid plan.',
    };
  }
  return {
    resets: `Your quota resets on ${new Date(end).toISOString().slice(0, 10)} at 00:00 UTC.`,
    refused: 'Requests are refused with 403 quota_exceeded until then.',
  };
}

/** The quota e-mail for one outbox row: plan, used, remaining, limit, and when the period resets. */
export function composeQuotaMail(m: ClaimedMessage, from: string, domain: string): MailMessage {
  const remaining = Math.max(0, m.limit - m.used);
  const plan = PLAN_LABEL[m.plan] ?? m.plan;
  const { resets, refused } = composeResetLines(m, plan);
  const headline = composeHeadline(m, plan);
  const exhausted = remaining === 0 ? refused : '';
  const lines = [
    `${headline}.`,
    '',
    `Plan: ${plan}`,
    `Used: ${m.used.toLocaleString('en-US')}`,
    `Remaining: ${remaining.toLocaleString('en-US')}`,
    `Limit: ${m.limit.toLocaleString('en-US')}`,
    '',
    resets,
    exhausted,
  ].filter((l, i, all) => l !== '' || all[i - 1] !== '');
  const text = `${lines.join('\n').trim()}\n`;
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;color:#0f1419">` +
    `<p><strong>${escapeHtml(headline)}.</strong></p><table>` +
    [
      ['Plan', plan],
      ['Used', m.used],
      ['Remaining', remaining],
      ['Limit', m.limit],
    ]
      .map(
        ([k, v]) =>
          `<tr><td>${k}</td><td><strong>${escapeHtml(typeof v === 'number' ? v.toLocaleString('en-US') : v)}</strong></td></tr>`,
      )
      .join('') +
    `</table><p>${escapeHtml(resets)}</p>` +
    (exhausted ? `<p>${escapeHtml(exhausted)}</p>` : '') +
    '</body></html>';
  return {
    to: m.email,
    from,
    subject: `postshot: ${m.threshold}% of your ${plan} quota used`,
    text,
    html,
    messageId: `<${m.id}@${domain}>`,
  };
}

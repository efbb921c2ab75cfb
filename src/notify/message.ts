import { escapeHtml } from '../render/html.ts';
import { computePeriod } from '../quota/period.ts';
import { PLANS } from '../quota/plans.ts';
import type { ClaimedMessage, MailMessage } from './interface.ts';

const PLAN_LABEL: Record<string, string> = { free: 'Free', pro: 'Pro', pro_plus: 'Pro+', business: 'Business' };

/** The quota e-mail for one outbox row: plan, used, remaining, limit, and when the period resets. */
export function composeQuotaMail(m: ClaimedMessage, from: string, domain: string): MailMessage {
  const remaining = Math.max(0, m.limit - m.used);
  const plan = PLAN_LABEL[m.plan] ?? m.plan;
  const end = computePeriod(m.plan, m.anchor, m.periodStart).end;
  const resets =
    PLANS[m.plan].period === 'one_time' || end === null
      ? 'The free plan’s 50 credits are a one-time allowance and do not reset; upgrade for a monthly quota.'
      : `Your quota resets on ${new Date(end).toISOString().slice(0, 10)} at 00:00 UTC.`;
  const headline =
    m.threshold >= 100
      ? `You have used all of your ${plan} quota`
      : `You have used ${m.threshold}% of your ${plan} quota`;
  const lines = [
    `${headline}.`,
    '',
    `Plan: ${plan}`,
    `Used: ${m.used.toLocaleString('en-US')}`,
    `Remaining: ${remaining.toLocaleString('en-US')}`,
    `Limit: ${m.limit.toLocaleString('en-US')}`,
    '',
    resets,
    m.threshold >= 100 ? 'Requests are refused with 403 quota_exceeded until then.' : '',
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
    `</table><p>${escapeHtml(resets)}</p></body></html>`;
  return {
    to: m.email,
    from,
    subject: `postshot: ${m.threshold}% of your ${plan} quota used`,
    text,
    html,
    messageId: `<${m.id}@${domain}>`,
  };
}

const PLAN_LABEL: Record<string, string> = { free: 'Free', pro: 'Pro', pro_plus: 'Pro+', business: 'Business' };

export const planLabel = (plan: string): string => PLAN_LABEL[plan] ?? plan;

/** Dates are shown in UTC, the zone quota periods are computed in. */
export function formatDate(ms: number): string {
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  return `${formatDate(ms)}, ${d.toISOString().slice(11, 16)} UTC`;
}

export const formatNumber = (n: number): string => n.toLocaleString('en-US');

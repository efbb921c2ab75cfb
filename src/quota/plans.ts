export const PLAN_NAMES = ['free', 'pro', 'pro_plus', 'business'] as const;
export type Plan = (typeof PLAN_NAMES)[number];

export interface PlanRules {
  credits: number;
  /** A one-time allowance never resets; a monthly one resets on the account's anchor day. */
  period: 'one_time' | 'monthly';
  canHostImages: boolean;
}

export const PLANS: Readonly<Record<Plan, PlanRules>> = Object.freeze({
  free: { credits: 50, period: 'one_time', canHostImages: false },
  pro: { credits: 300, period: 'monthly', canHostImages: true },
  pro_plus: { credits: 1000, period: 'monthly', canHostImages: true },
  business: { credits: 6000, period: 'monthly', canHostImages: true },
});

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);
}

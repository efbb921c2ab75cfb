/** Percentages of a period's quota whose crossing sends one e-mail each. */
export const THRESHOLDS = [50, 70, 90, 100] as const;

/** Thresholds reached by moving from `before` to `after` credits used (to or past, never on the way down). */
export function thresholdsCrossed(before: number, after: number, limit: number): number[] {
  if (limit <= 0 || after <= before) return [];
  // Integer arithmetic: "used * 100 >= threshold * limit" avoids 0.7 * 300 = 209.99999 surprises.
  return THRESHOLDS.filter((t) => before * 100 < t * limit && after * 100 >= t * limit);
}

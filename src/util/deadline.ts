/**
 * `work`'s outcome, or `late()`'s (its value, or what it throws) once `ms` pass first. Only the wait
 * is cut short: `work` runs on. The timer never outlives the race.
 */
export function settleBy<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(Promise.resolve().then(late)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

import { settleBy } from './util/deadline.ts';

/** What /readyz reports per part. */
export type PartState = 'ok' | 'down' | 'warming';

/**
 * The longest one part's check may take. A load balancer's probe gives up after a few seconds
 * and learns nothing: a part that has not answered by then is reported down, and the parts are
 * checked side by side, so a stalled database (10 s statement timeout) delays none of it.
 */
export const READY_CHECK_TIMEOUT_MS = 2000;

export interface ReadinessParts {
  /** Set while the render workers warm up. */
  warming: () => boolean;
  /** Each part's ping, by the name /readyz shows. */
  pings: Record<string, () => Promise<unknown>>;
}

/**
 * Builds the readiness check. A ping still running from an earlier probe is shared, not started
 * again, so frequent probes of a stalled part do not pile up connections waiting on it.
 */
export function createReadinessCheck(parts: ReadinessParts): () => Promise<Record<string, PartState>> {
  const running = new Map<string, Promise<PartState>>();
  const stateOf = (name: string, ping: () => Promise<unknown>): Promise<PartState> => {
    let check = running.get(name);
    if (!check) {
      check = Promise.resolve()
        .then(ping)
        .then(
          () => 'ok' as const,
          () => 'down' as const,
        )
        .finally(() => running.delete(name));
      running.set(name, check);
    }
    return settleBy<PartState>(check, READY_CHECK_TIMEOUT_MS, () => 'down');
  };
  return async () => {
    const checks: Record<string, PartState> = {};
    if (parts.warming()) checks.render = 'warming';
    const names = Object.keys(parts.pings);
    const states = await Promise.all(names.map((name) => stateOf(name, parts.pings[name])));
    names.forEach((name, i) => {
      checks[name] = states[i];
    });
    return checks;
  };
}

/** A backing service (database, Redis, object store) could not be reached: 503, never a charge. */
export class DependencyDownError extends Error {
  constructor(
    readonly dependency: 'database' | 'redis' | 'image store',
    cause?: unknown,
  ) {
    super(`${dependency} unavailable`, { cause });
  }
}

/**
 * The connection died while COMMIT was in flight: the transaction may or may not have committed.
 * Still a 503 wherever it is not handled; a charge's commit reads it as "settled either way".
 */
export class CommitOutcomeUnknownError extends DependencyDownError {}

/**
 * The client closed its connection before its answer was ready: nothing is charged, and a render
 * still queued for it is not drawn (a running one finishes into the render cache, for a retry).
 */
export class ClientGoneError extends Error {
  constructor() {
    super('the client closed its connection before the answer');
  }
}

/** One line for an operator: what the server or the network said (a DependencyDownError's cause), without the stack. */
export function describeCause(err: unknown): string {
  const inner = (err as { cause?: unknown } | null)?.cause ?? err;
  return String((inner as Error | null)?.message ?? inner).split('\n')[0];
}

/**
 * An account already has this address (compared case-insensitively): one address, one account,
 * or signing in at /account could only ever reach the oldest of them.
 */
export class AddressTakenError extends Error {
  constructor(readonly email: string) {
    super(`an account with the address ${email} already exists`);
  }
}

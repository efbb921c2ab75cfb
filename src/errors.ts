/** A backing service (database, Redis, object store) could not be reached: 503, never a charge. */
export class DependencyDownError extends Error {
  constructor(
    readonly dependency: 'database' | 'redis' | 'image store',
    cause?: unknown,
  ) {
    super(`${dependency} unavailable`, { cause });
  }
}

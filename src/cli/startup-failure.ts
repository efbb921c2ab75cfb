import { DependencyDownError } from '../errors.ts';

/**
 * One line saying why `serve` could not start, for an operator reading stderr: what failed and
 * the setting or part to look at, never a stack trace.
 */
export function describeStartupFailure(err: unknown, where: { dataDir: string; host: string; port: number }): string {
  if (err instanceof DependencyDownError) {
    const cause = err.cause instanceof Error ? err.cause.message : String(err.cause ?? '');
    return `${err.dependency} unreachable${cause ? `: ${cause}` : ''}`;
  }
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'EADDRINUSE':
      return `port ${where.port} on ${where.host} is already in use (set PORT or HOST)`;
    case 'EACCES':
    case 'EPERM':
      return e.syscall === 'listen'
        ? `not allowed to listen on port ${where.port} on ${where.host}`
        : `permission denied: ${e.path ?? e.message}`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where.host}: no such local address (set HOST)`;
    case 'EEXIST':
    case 'ENOTDIR':
      return `data dir ${where.dataDir} is not a directory (POSTSHOT_DATA_DIR)`;
    case 'ENOENT':
      return `no such file: ${e.path ?? e.message}`;
  }
  return (e?.message ?? String(err)).split('\n')[0];
}

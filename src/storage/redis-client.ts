import { Redis } from 'ioredis';
import { DependencyDownError } from '../errors.ts';

/**
 * A client whose every command gives up after 2 s (queued while connecting or not), and that
 * reconnects by itself: while Redis is away requests get a 503 instead of hanging, and they
 * recover when it returns.
 */
export function createRedis(url: string, keyPrefix = ''): Redis {
  const client = new Redis(url, {
    // Names the service's connections in CLIENT LIST, per key prefix.
    connectionName: `postshot/${keyPrefix}`.replace(/[^\w:./-]/g, '_'),
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    // A connection that stops answering without closing (a failover that black-holes the old
    // flow, a dropped NAT entry) is destroyed and replaced, not waited on until TCP gives up.
    socketTimeout: 3000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
  });
  client.on('error', () => {});
  return client;
}

export async function redisCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new DependencyDownError('redis', err);
  }
}

import fs from 'node:fs';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { createContainer } from '../container.ts';
import { lockDataDir } from '../storage/data-dir-lock.ts';
import { CliError, type CliIo } from './index.ts';
import { findFreePort } from './free-port.ts';
import { describeStartupFailure } from './startup-failure.ts';

/**
 * PORT=0 asks the system for a port. One is picked up front, so that the public URL made of HOST
 * and PORT (hosted image URLs, sign-in links, the OpenAPI servers entry) names it, not port 0.
 */
async function withPickedPort(base: Readonly<Config>): Promise<Readonly<Config>> {
  const port = await findFreePort(base.host);
  const publicUrl = base.publicUrl.endsWith(':0') ? `${base.publicUrl.slice(0, -2)}:${port}` : base.publicUrl;
  return { ...base, port, publicUrl };
}

/**
 * Listens until SIGINT/SIGTERM, then stops taking requests, lets in-flight ones finish and closes.
 * Holds the data dir's lock first and listens before touching shared state (refunds, the outbox):
 * a second `serve` or a port in use fails before it can give away a running instance's charges.
 */
export async function serve(base: Readonly<Config>, _io: CliIo): Promise<number> {
  const config = base.port === 0 ? await withPickedPort(base) : base;
  let locked: ReturnType<typeof lockDataDir>;
  try {
    locked = lockDataDir(config.dataDir);
  } catch (err) {
    throw new CliError(`cannot start: ${describeStartupFailure(err, config)}`);
  }
  if (!locked.ok)
    throw new CliError(`data dir ${locked.dataDir} is in use by another postshot serve (${locked.holder})`);
  let container: Awaited<ReturnType<typeof createContainer>> | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    container = await createContainer(config);
    const https =
      config.tlsCert && config.tlsKey
        ? { cert: fs.readFileSync(config.tlsCert), key: fs.readFileSync(config.tlsKey) }
        : undefined;
    app = await buildApp(container, { https });
    await app.listen({ port: config.port, host: config.host });
    await container.start({ dataDirLockedAt: locked.lock.lockedAt });
  } catch (err) {
    // A start-up failure is one line on stderr and exit code 1 (index.ts prints CliError so).
    await app?.close().catch(() => {});
    await container?.close().catch(() => {});
    throw new CliError(`cannot start: ${describeStartupFailure(err, config)}`);
  }

  return new Promise<number>((resolve) => {
    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => {
        app.log.error('graceful shutdown timed out');
        resolve(1);
      }, 15_000);
      force.unref();
      await app.close();
      await container.close();
      locked.lock.release();
      clearTimeout(force);
      resolve(0);
    };
    process.once('SIGINT', () => void shutdown('SIGINT'));
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
  });
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { createContainer } from '../container.ts';
import type { CliIo } from './index.ts';

/**
 * `postshot openapi`: prints the document GET /openapi.json serves. The app is built over a
 * throw-away embedded store: the document depends on the routes and POSTSHOT_PUBLIC_URL only.
 */
export async function runOpenApiCommand(config: Readonly<Config>, io: CliIo): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postshot-openapi-'));
  const c = await createContainer({
    ...config,
    logLevel: 'silent',
    dataDir: dir,
    databaseUrl: `sqlite:${path.join(dir, 'postshot.db')}`,
    redisUrl: undefined,
    imageStore: { kind: 'disk', dir: path.join(dir, 'images') },
    smtpUrl: undefined,
    renderWorkers: 1,
  });
  try {
    const app = await buildApp(c);
    io.out(JSON.stringify(app.swagger(), null, 2));
    await app.close();
    return 0;
  } finally {
    await c.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

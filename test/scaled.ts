// Scaled-out test mode (POSTSHOT_TEST_MODE=scaled): every harness gets its own PostgreSQL schema,
// Redis key prefix and S3 prefix on the machine's PostgreSQL and Redis and an S3 protocol server
// (s3rver) started in this process.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import S3rver from 's3rver';

export const PG_URL = process.env.POSTSHOT_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.POSTSHOT_TEST_REDIS ?? 'redis://127.0.0.1:6379';
export const BUCKET = 'postshot-test';

export const scaledMode = process.env.POSTSHOT_TEST_MODE === 'scaled';

let s3: Promise<{ endpoint: string; close: () => Promise<void> }> | null = null;

/** One S3 protocol server per test process. */
export function startS3(): Promise<{ endpoint: string; close: () => Promise<void> }> {
  s3 ??= (async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'postshot-s3-'));
    const server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = (await server.run()) as { port: number };
    // Shared by every test of the process: it must not keep the process alive when they are done.
    const http = (server as unknown as { httpServer: import('node:http').Server }).httpServer;
    http.unref();
    http.on('connection', (socket) => socket.unref());
    return {
      endpoint: `http://127.0.0.1:${port}`,
      close: async () => {
        await server.close();
        fs.rmSync(directory, { recursive: true, force: true });
      },
    };
  })();
  return s3;
}

export interface ScaledBackends {
  env: Record<string, string>;
  schema: string;
  prefix: string;
  cleanup(): Promise<void>;
}

/** Fresh, isolated backends on the shared services; `cleanup` drops them. */
export async function scaledBackends(): Promise<ScaledBackends> {
  const id = randomBytes(6).toString('hex');
  const schema = `t_${id}`;
  const prefix = `t:${id}:`;
  const { endpoint } = await startS3();
  return {
    schema,
    prefix,
    env: {
      POSTSHOT_DATABASE_URL: `${PG_URL}?schema=${schema}`,
      POSTSHOT_REDIS_URL: REDIS_URL,
      POSTSHOT_REDIS_PREFIX: prefix,
      POSTSHOT_IMAGE_STORE: `s3://${BUCKET}/${id}`,
      POSTSHOT_S3_ENDPOINT: endpoint,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async cleanup() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    },
  };
}

/** Every row of every table of a schema, as text (to prove what is and is not stored). */
export async function dumpSchema(schema: string): Promise<string> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const tables = await client.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [
      schema,
    ]);
    let out = '';
    for (const { table_name } of tables.rows) {
      const rows = await client.query(`SELECT row_to_json(t)::text AS j FROM ${schema}.${table_name} t`);
      out += rows.rows.map((r) => r.j).join('\n');
    }
    return out;
  } finally {
    await client.end();
  }
}

import pg from 'pg';
import { loadMigrations, NOT_MADE } from '../migrations.ts';
import { PgClient, QUERY_TIMEOUT_MS } from './client.ts';
import { PostgresAccountStore } from './store.ts';
import { parseUrl } from './url.ts';

export async function openPostgresStore(url: string, create = true): Promise<PostgresAccountStore> {
  const { connectionString, schema } = parseUrl(url);
  const pool = new pg.Pool({
    connectionString,
    options: `-c search_path=${schema}`,
    // Names the service's connections in pg_stat_activity, per schema.
    application_name: schema === 'public' ? 'postshot' : `postshot/${schema}`,
    max: 10,
    connectionTimeoutMillis: 3000,
    query_timeout: QUERY_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  const client = new PgClient(pool);
  try {
    if (!create && !(await isMade(client, schema))) throw new Error(NOT_MADE);
    await migrate(client, schema);
  } catch (err) {
    await client.end();
    throw err;
  }
  return new PostgresAccountStore(client);
}

async function isMade(client: PgClient, schema: string): Promise<boolean> {
  const { rows } = await client.query(
    "SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'schema_migrations'",
    [schema],
  );
  return rows.length > 0;
}

/** One migrator at a time across instances (a transaction-scoped advisory lock per schema). */
async function migrate(client: PgClient, schema: string): Promise<void> {
  await client.tx(async (c) => {
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`postshot-migrate-${schema}`]);
    await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await c.query(`SET LOCAL search_path TO ${schema}`);
    await c.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
    );
    const { rows } = await c.query('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => Number(r.version)));
    for (const m of loadMigrations('postgres')) {
      if (applied.has(m.version)) continue;
      await c.query(m.sql);
      await c.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [m.version, Date.now()]);
    }
  });
}

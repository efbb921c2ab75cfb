import fs from 'node:fs';
import path from 'node:path';

/** Why a store asked for only if it is there is refused: no migration has made it. */
export const NOT_MADE = 'no postshot database there yet (postshot accounts create makes one)';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The migrations of one dialect: `migrations/<dialect>/NNN-name.sql`, applied in version order.
 * Every schema change adds one file per dialect with the same number, so both stay in step.
 */
export function loadMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  const dir = path.join(import.meta.dirname, 'migrations', dialect);
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}-[a-z0-9-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: Number(f.slice(0, 3)),
      name: f.slice(4, -4),
      sql: fs.readFileSync(path.join(dir, f), 'utf8'),
    }));
}

/** `postgres://…?schema=name` keeps all tables in that schema (created if missing). */
export function parseUrl(url: string): { connectionString: string; schema: string } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  u.searchParams.delete('schema');
  return { connectionString: u.toString(), schema };
}

// Runs every test/**/*.test.ts with Node's test runner through tsx.
// Usage: npm test [-- path-filter ...]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function collect(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return collect(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const filters = process.argv.slice(2);
const files = collect('test')
  .sort()
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
function run(list, env) {
  return (
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        '--test-reporter=spec',
        `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 2}`,
        ...list,
      ],
      { stdio: 'inherit', env: { ...process.env, ...env } },
    ).status ?? 1
  );
}

// Pass 1: everything, embedded mode (SQLite, in-process cache and limiter, disk images).
const first = run(files, {});
// Pass 2: the HTTP suite again in scaled-out mode (PostgreSQL, Redis, S3) — same tests, other backends.
const scaledFiles = files.filter((f) => f.startsWith(path.join('test', 'http')) || f.endsWith('quota-mail.test.ts'));
let second = 0;
if (scaledFiles.length > 0 && process.env.POSTSHOT_SKIP_SCALED !== '1') {
  console.log(`\n# scaled-out mode: ${scaledFiles.length} files again on PostgreSQL + Redis + S3\n`);
  second = run(scaledFiles, { POSTSHOT_TEST_MODE: 'scaled' });
}
process.exit(first || second);

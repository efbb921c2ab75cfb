import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import semver from 'semver';
import { REPO_DIR } from '../fixtures.ts';

/** Every installed package (nested copies too) with the Node.js range it declares, if any. */
function listInstalledPackages(dir: string): Array<{ name: string; version: string; node?: string }> {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    // A linked package (a workspace, a file: dependency) counts like an installed one.
    if (entry.name.startsWith('.') || !fs.statSync(at, { throwIfNoEntry: false })?.isDirectory()) return [];
    if (entry.name.startsWith('@')) return listInstalledPackages(at);
    const manifest = path.join(at, 'package.json');
    if (!fs.existsSync(manifest)) return [];
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
      name: string;
      version: string;
      engines?: { node?: string };
    };
    return [
      { name: pkg.name, version: pkg.version, node: pkg.engines?.node },
      ...listInstalledPackages(path.join(at, 'node_modules')),
    ];
  });
}

// The package promises the oldest Node.js its engines field names (CI runs it): a dependency that
// declares a newer one may use what that Node.js lacks, on a path no test takes.
test('every installed dependency supports the oldest Node.js the package does', () => {
  const ours = JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'package.json'), 'utf8')).engines.node as string;
  const oldest = semver.minVersion(ours);
  assert.ok(oldest, `engines.node ${ours}`);
  const packages = listInstalledPackages(path.join(REPO_DIR, 'node_modules'));
  assert.ok(packages.length > 100, 'node_modules is installed');
  const refusing = packages
    .filter((p) => p.node && !semver.satisfies(oldest, p.node))
    .map((p) => `${p.name}@${p.version} needs node ${p.node}`);
  assert.deepEqual(refusing, [], `Node.js ${oldest} is refused by`);
});

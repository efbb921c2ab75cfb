// Plain-JavaScript bundles of the TypeScript sources (esbuild; packages stay external), written
// under node_modules/.cache/postshot/ and named by content hash. A process started from one needs
// no TypeScript loader of its own: the service and its render processes each save the memory and
// start-up time of one (docs/performance.md). JavaScript, so bin/postshot.js can load it as is.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SRC = path.dirname(fileURLToPath(import.meta.url));
// Inside node_modules, so a bundle's bare imports resolve like the sources' do.
const CACHE_DIR = path.resolve(SRC, '..', 'node_modules', '.cache', 'postshot');

/** The options every bundle is made with. */
export const BUNDLE_OPTIONS = Object.freeze({
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  write: false,
  logLevel: 'silent',
});

// A bundle of other sources is removed once it is this old: a process still running from it (an
// upgrade in place) may yet start a render process from its own.
const KEEP_MS = 24 * 3600_000;

/**
 * Writes `code` as `<name>-<hash>.mjs` unless that file exists, removes old bundles of the same
 * name, and returns the file's URL. Written to a temporary name and renamed: a process that
 * starts meanwhile never reads half a file.
 * @param {string} name
 * @param {Uint8Array} code
 * @returns {URL}
 */
export function writeBundle(name, code) {
  const file = path.join(CACHE_DIR, `${name}-${createHash('sha1').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, file);
    for (const old of fs.readdirSync(CACHE_DIR)) {
      const other = path.join(CACHE_DIR, old);
      if (!old.startsWith(`${name}-`) || other === file) continue;
      const mtime = fs.statSync(other, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - mtime > KEEP_MS) fs.rmSync(other, { force: true });
    }
  }
  return pathToFileURL(file);
}

/**
 * esbuild plugin: `import.meta.url`, `.dirname` and `.filename` keep each source file's own
 * values in the bundle, so paths relative to a source (migrations, samples, page assets) resolve.
 */
const keepImportMeta = {
  name: 'keep-import-meta',
  /** @param {import('esbuild').PluginBuild} build */
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.m?[jt]s$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

/**
 * The service's bundle (src/main.ts), or null when it cannot be made (a read-only install, no
 * esbuild): the caller then loads the sources through tsx.
 * @returns {Promise<URL | null>}
 */
export async function bundleService() {
  try {
    const esbuild = await import('esbuild');
    try {
      const out = await esbuild.build({
        ...BUNDLE_OPTIONS,
        entryPoints: [path.join(SRC, 'main.ts')],
        plugins: [keepImportMeta],
      });
      return writeBundle('service', out.outputFiles[0].contents);
    } finally {
      // esbuild answers from a service process that would otherwise stay as long as this one.
      await esbuild.stop();
    }
  } catch {
    return null;
  }
}

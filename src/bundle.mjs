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

// Where esbuild places a bundle's files (never written there: `write: false`).
const OUT_DIR = path.join(CACHE_DIR, 'out');

/** The options every bundle is made with. */
const BUNDLE_OPTIONS = Object.freeze({
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  write: false,
  logLevel: 'silent',
  outdir: OUT_DIR,
  outExtension: { '.js': '.mjs' },
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
});

// A bundle of other sources is removed once it is this old: a process still running from it (an
// upgrade in place) may yet start a render process from its own.
const KEEP_MS = 24 * 3600_000;

/**
 * Writes a bundle's files into `<name>-<hash>/` unless that folder exists, removes old bundles of
 * the same name, and returns the URL of its `entry` file. Written to a temporary folder and
 * renamed: a process that starts meanwhile never reads half a bundle.
 * @param {string} name
 * @param {{ path: string, contents: Uint8Array }[]} files paths relative to the bundle's folder
 * @param {string} entry
 * @returns {URL}
 */
export function writeBundle(name, files, entry) {
  const hash = createHash('sha1');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1)))
    hash.update(f.path).update('\0').update(f.contents);
  const dir = path.join(CACHE_DIR, `${name}-${hash.digest('hex').slice(0, 16)}`);
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    const tmp = `${dir}.${process.pid}.tmp`;
    fs.rmSync(tmp, { recursive: true, force: true });
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(tmp, f.path)), { recursive: true });
      fs.writeFileSync(path.join(tmp, f.path), f.contents);
    }
    try {
      fs.renameSync(tmp, dir);
    } catch (err) {
      // Another process wrote the same bundle first.
      fs.rmSync(tmp, { recursive: true, force: true });
      if (!fs.existsSync(dir)) throw err;
    }
    for (const old of fs.readdirSync(CACHE_DIR)) {
      const other = path.join(CACHE_DIR, old);
      if (!old.startsWith(`${name}-`) || other === dir) continue;
      const mtime = fs.statSync(other, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - mtime > KEEP_MS) fs.rmSync(other, { recursive: true, force: true });
    }
  }
  return pathToFileURL(path.join(dir, entry));
}

/**
 * The output files of a build made with `outdir: OUT_DIR`, with paths relative to it.
 * @param {import('esbuild').OutputFile[]} outputFiles
 */
function filesOf(outputFiles) {
  return outputFiles.map((f) => ({ path: path.relative(OUT_DIR, f.path), contents: f.contents }));
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
 * Builds a bundle with esbuild (BUNDLE_OPTIONS and `options`) and writes it (writeBundle).
 * esbuild answers from a process of its own, stopped once the build is done: it would otherwise
 * stay as long as this one. The asynchronous API runs that process from this thread, which reaps
 * it once stopped; buildSync runs it from a worker thread of its own and left it a zombie.
 * @param {string} name
 * @param {import('esbuild').BuildOptions} options
 * @param {string} entry the file to load, relative to the bundle's folder
 * @returns {Promise<URL>}
 */
export async function buildBundle(name, options, entry) {
  const esbuild = await import('esbuild');
  try {
    const out = await esbuild.build({ ...BUNDLE_OPTIONS, ...options });
    return writeBundle(name, filesOf(out.outputFiles ?? []), entry);
  } finally {
    await esbuild.stop();
  }
}

/**
 * The service's bundle (src/main.ts), or null when it cannot be made (a read-only install, no
 * esbuild): the caller then loads the sources through tsx.
 * @returns {Promise<URL | null>}
 */
export async function bundleService() {
  try {
    return await buildBundle(
      'service',
      {
        entryPoints: [path.join(SRC, 'main.ts')],
        plugins: [keepImportMeta],
        // A module imported only when needed (S3, PostgreSQL, Redis, the MCP SDK, the CLI's
        // commands) stays in a chunk of its own, with its packages: one file would import them all at start.
        splitting: true,
      },
      'main.mjs',
    );
  } catch {
    return null;
  }
}

// postinstall: puts postshot's glyph-path writer (scripts/satori-glyph-paths.mjs, which says why)
// into the installed satori. Idempotent. The patch only makes rendering faster and SVGs smaller:
// if satori's text does not match the version it was written for, rendering stays correct, this
// prints a warning, and test/render/satori-patch.test.ts fails so an upgrade cannot drop it silently.
//
// satori is MPL-2.0: this modification of its file is published under that licence with postshot.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeGlyphPathWriter } from './satori-glyph-paths.mjs';

export const MARKER = '/* postshot: glyph paths (scripts/patch-satori.mjs) */';

// satori 0.63.2, dist/index.js: the function that writes one glyph's outline as absolute path data.
const ORIGINAL_HEAD = 'function fd(A,g,I,C,B=0){';
export const ORIGINAL =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of satori's minified source, matched verbatim
  'function fd(A,g,I,C,B=0){let E=(o,e)=>nr(g+(o+B*e)*C),Q=o=>nr(I-o*C),i="";for(let o of A)switch(o.type){case"M":case"L":i+=`${o.type}${E(o.x,o.y)} ${Q(o.y)}`;break;case"Q":i+=`Q${E(o.x1,o.y1)} ${Q(o.y1)} ${E(o.x,o.y)} ${Q(o.y)}`;break;case"C":i+=`C${E(o.x1,o.y1)} ${Q(o.y1)} ${E(o.x2,o.y2)} ${Q(o.y2)} ${E(o.x,o.y)} ${Q(o.y)}`;break;case"Z":i+="Z";break}return i}';

export function satoriEntry() {
  const pkg = createRequire(import.meta.url).resolve('satori/package.json');
  return path.join(path.dirname(pkg), 'dist', 'index.js');
}

/** @returns {{ status: 'patched' | 'already' | 'unknown', source: string }} */
export function patchSatoriSource(source) {
  if (source.includes(MARKER)) return { status: 'already', source };
  if (!source.includes(ORIGINAL)) return { status: 'unknown', source };
  const replacement =
    ORIGINAL.replace(ORIGINAL_HEAD, 'function __postshotSatoriFd(A,g,I,C,B=0){') +
    `\n${MARKER}\nvar __postshotGlyphPath=(${makeGlyphPathWriter.toString()})(__postshotSatoriFd);\n` +
    'function fd(A,g,I,C,B=0){return __postshotGlyphPath(A,g,I,C,B)}\n';
  return { status: 'patched', source: source.replace(ORIGINAL, () => replacement) };
}

function main() {
  let file;
  try {
    file = satoriEntry();
  } catch {
    console.warn('postshot: satori is not installed; nothing to patch');
    return;
  }
  const { status, source } = patchSatoriSource(fs.readFileSync(file, 'utf8'));
  if (status === 'patched') fs.writeFileSync(file, source);
  if (status === 'unknown') {
    console.warn(
      `postshot: ${file} is not the satori the glyph-path patch was written for; SVG and PNG rendering stay correct but slower`,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

// Gives an idle render process's free heap back to the system. glibc returns freed memory by
// itself only from the top of its heap; what a burst of cards freed below a block still in use
// stays resident until malloc_trim walks the heap. The engine is native, so there is no Node API
// for this: the C function is called through koffi (an FFI with prebuilt binaries). Where that or
// the function is missing (another C library, another system), trimming is skipped.
import { createRequire } from 'node:module';

type Trim = () => void;

let trim: Trim | null | undefined;

function loadTrim(): Trim | null {
  if (process.platform !== 'linux') return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
    return () => mallocTrim(0);
  } catch {
    return null;
  }
}

/** Returns every free page of the C heap to the system; false where that cannot be done here. */
export function trimHeap(): boolean {
  if (trim === undefined) trim = loadTrim();
  trim?.();
  return trim !== null;
}

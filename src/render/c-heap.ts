// The C library's heap, which the engine and the image encoder allocate from, seen and trimmed
// from JavaScript. glibc returns freed memory by itself only from the top of its heap; what a
// burst of cards freed below a block still in use stays resident until malloc_trim walks the
// heap. The engine is native, so there is no Node API for this: the C functions are called
// through koffi (an FFI with prebuilt binaries). Where that or a function is missing (another C
// library, another system), these do nothing.
import { createRequire } from 'node:module';

type Koffi = typeof import('koffi');

interface CHeap {
  trim: (() => void) | null;
  inUse: (() => number) | null;
}

let heap: CHeap | undefined;

/** What `make` returns, or null where it throws: a module, library or function missing here. */
function attempt<T>(make: () => T): T | null {
  try {
    return make();
  } catch {
    return null;
  }
}

function loadHeap(): CHeap {
  const none = { trim: null, inUse: null };
  if (process.platform !== 'linux') return none;
  const koffi = attempt(() => createRequire(import.meta.url)('koffi') as Koffi);
  const libc = koffi && attempt(() => koffi.load('libc.so.6'));
  if (!koffi || !libc) return none;
  const trim = attempt(() => {
    const mallocTrim = libc.func('int malloc_trim(size_t pad)');
    return () => void mallocTrim(0);
  });
  // glibc 2.33 and later: the older mallinfo's int fields wrap past 2 GB.
  const inUse = attempt(() => {
    const fields = 'arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost'.split(' ');
    const struct = koffi.struct(Object.fromEntries(fields.map((f) => [f, 'size_t'])));
    const mallinfo2 = libc.func('mallinfo2', struct, []);
    return () => {
      const info = mallinfo2() as { uordblks: number | bigint; hblkhd: number | bigint };
      return Number(info.uordblks) + Number(info.hblkhd);
    };
  });
  return { trim, inUse };
}

/** Returns every free page of the C heap to the system; false where that cannot be done here. */
export function trimHeap(): boolean {
  heap ??= loadHeap();
  heap.trim?.();
  return heap.trim !== null;
}

/** Bytes allocated from the C heap and not yet freed (every arena and mapped block), or null. */
export function heapInUse(): number | null {
  heap ??= loadHeap();
  return heap.inUse?.() ?? null;
}

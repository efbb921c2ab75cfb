import { parentPort } from 'node:worker_threads';
import type { Post } from '../sources/post.ts';
import type { PreparedImage } from './assets.ts';
import { renderCard, type RenderOptions } from './renderer.ts';

export interface RenderTask {
  id: number;
  post: Post;
  assets: Array<[string, PreparedImage | null]>;
  options: RenderOptions;
}

export type RenderReply =
  | { id: number; ok: true; bytes: Uint8Array; contentType: string }
  | { id: number; ok: false; error: string };

parentPort!.on('message', async (task: RenderTask) => {
  try {
    const out = await renderCard(task.post, new Map(task.assets), task.options);
    const bytes = new Uint8Array(out.bytes.buffer, out.bytes.byteOffset, out.bytes.byteLength);
    parentPort!.postMessage({ id: task.id, ok: true, bytes, contentType: out.contentType } satisfies RenderReply);
  } catch (err) {
    parentPort!.postMessage({
      id: task.id,
      ok: false,
      error: String((err as Error)?.stack ?? err),
    } satisfies RenderReply);
  }
});
parentPort!.postMessage({ ready: true });

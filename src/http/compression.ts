import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

// Text formats only: PNG, JPEG and WebP are compressed already, deflating them again costs CPU for nothing.
export const COMPRESSIBLE = /^(?:image\/svg\+xml|text\/html|text\/markdown|application\/(?:problem\+)?json)(?:;|$)/;

/** gzip or br when the client asks (Accept-Encoding), for answers of 256 bytes or more (below, the gzip framing eats the gain). */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    threshold: 256,
    // Request bodies are small JSON: compressed ones are not decoded (and so fail as JSON).
    globalDecompression: false,
    // Brotli 11 would save another ~10 % on a card at over 100 times the CPU (140 ms for a 60 KB SVG).
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}

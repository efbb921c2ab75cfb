import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

// Text formats only: PNG, JPEG and WebP are compressed already, deflating them again costs CPU for nothing.
const COMPRESSIBLE = /^(?:image\/svg\+xml|text\/html|text\/markdown|application\/(?:problem\+)?json)(?:;|$)/;

/** gzip or br when the client asks (Accept-Encoding), for answers of 256 bytes or more (below, the gzip framing eats the gain). */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    threshold: 256,
    // Request bodies are small JSON: compressed ones are not decoded (and so fail as JSON).
    globalDecompression: false,
    // Quality 4 and level 6: within a few per cent of the best ratio for cards at a fraction of the CPU.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}

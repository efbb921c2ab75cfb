import type { FastifyReply } from 'fastify';

/** Whether the client's connection (HTTP/1) or stream (HTTP/2) has closed already. */
function isClosed(raw: FastifyReply['raw']): boolean {
  const stream = (raw as { stream?: { destroyed?: boolean } }).stream;
  return Boolean(stream ? stream.destroyed : (raw as { destroyed?: boolean }).destroyed);
}

/**
 * Aborts `signal` when the client hangs up before its answer is sent ('close' before the
 * response finished). A client that left earlier, while the request waited on authentication,
 * closed the response already and 'close' does not come again: that is checked at once.
 */
export function watchHangUp(reply: FastifyReply): { signal: AbortSignal; stop(): void } {
  const gone = new AbortController();
  const hangUp = () => {
    if (!reply.raw.writableFinished) gone.abort();
  };
  reply.raw.once('close', hangUp);
  if (isClosed(reply.raw)) hangUp();
  return { signal: gone.signal, stop: () => reply.raw.off('close', hangUp) };
}

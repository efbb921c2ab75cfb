// A load generator for the bench: `connections` kept-alive connections, each sending its next
// request when the last answer has been read. autocannon, used before, decoded every response
// body to a string: for a 250 KB PNG that cost the client several ms of CPU per answer, taken
// from the same two cores the service was measured on.
import { HttpConnection } from './http-connection.ts';

export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  url: string;
  connections: number;
  /** Requests are taken from this list in turn. */
  requests: LoadRequest[];
  /** Seconds to run, or… */
  durationS?: number;
  /** …requests to make in all. */
  amount?: number;
}

export interface LoadResult {
  total: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = o.durationS !== undefined ? started + o.durationS * 1000 : Number.POSITIVE_INFINITY;
  const more = () => performance.now() < deadline && (o.amount === undefined || next < o.amount);
  const send = async (connection: HttpConnection, r: LoadRequest) => {
    const t = performance.now();
    try {
      const { status } = await connection.request(r);
      latencies.push(performance.now() - t);
      if (status < 200 || status > 299) non2xx++;
    } catch {
      errors++;
    }
  };
  await Promise.all(
    Array.from({ length: o.connections }, async () => {
      const connection = new HttpConnection(o.url);
      while (more()) await send(connection, o.requests[next++ % o.requests.length]);
      connection.close();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    total: latencies.length,
    rps: Math.round((latencies.length / seconds) * 10) / 10,
    p50: Math.round(percentile(latencies, 50) * 10) / 10,
    p99: Math.round(percentile(latencies, 99) * 10) / 10,
    non2xx,
    errors,
  };
}

// A load generator for the bench: `connections` kept-alive node:http connections, each sending
// its next request when the last answer has been read, bodies read and thrown away. autocannon,
// used before, decoded every response body to a string: for a 250 KB PNG that cost the client
// several ms of CPU per answer, taken from the same two cores the service was measured on.
import http from 'node:http';

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
  const target = new URL(o.url);
  const latencies: number[] = [];
  let next = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = o.durationS !== undefined ? started + o.durationS * 1000 : Number.POSITIVE_INFINITY;
  const more = () => performance.now() < deadline && (o.amount === undefined || next < o.amount);
  const send = (agent: http.Agent, r: LoadRequest) =>
    new Promise<void>((resolve) => {
      const t = performance.now();
      const req = http.request(
        { host: target.hostname, port: target.port, method: r.method, path: r.path, headers: r.headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t);
            if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) non2xx++;
            resolve();
          });
          res.on('error', () => {
            errors++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(r.body);
    });
  await Promise.all(
    Array.from({ length: o.connections }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (more()) await send(agent, o.requests[next++ % o.requests.length]);
      agent.destroy();
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

// A stand-in for FxTwitter, syndication and X's media CDN, served from fixture folders. Used by
// the tests, `postshot demo` and the benchmark, so all three run with no network. Faults can be
// injected per post id to exercise every failure path of the sources.
//
// Layout of a fixture root (the package's samples/ and ../shared/fixtures share it):
//   upstream/fxtwitter/<id>.json    FxTwitter v1 bodies
//   upstream/syndication/<id>.json  tweet-result bodies
//   media/manifest.json             { "<image URL>": { "file": "...", "contentType": "..." } }
//
// Paths served: /fxtwitter/status/<id>, /syndication/tweet-result?id=<id>, /media/<host>/<path>.
// An id recorded only for syndication makes the FxTwitter path answer 503, so the service falls
// back exactly as it does when FxTwitter fails.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gradientPng } from '../util/png-encode.ts';

export interface Fault {
  status?: number;
  /** Wait before the headers. */
  delayMs?: number;
  body?: 'malformed' | 'truncated' | 'empty' | 'html' | 'tombstone' | 'age_restricted';
  /** Destroy the socket without an answer. */
  reset?: boolean;
  contentType?: string;
  /** Answer 302 to this location. */
  redirect?: string;
  /** Send the body in small pieces over this long. */
  slowBodyMs?: number;
}

type Target = 'fxtwitter' | 'syndication' | 'media';

interface MediaEntry {
  file: string;
  contentType: string;
  name?: string;
}

export interface FixtureServer {
  url: string;
  /** FxTwitter, syndication and media bases to put in the config. */
  env: { POSTSHOT_FXTWITTER_URL: string; POSTSHOT_SYNDICATION_URL: string; POSTSHOT_MEDIA_URL: string };
  setFault(id: string, fault: Fault | null, target?: Target | '*'): void;
  /** Serves `body` (any JSON value, or a Buffer of JSON text as it is) for a post id on a source instead of its recorded body; null removes it. */
  setBody(target: 'fxtwitter' | 'syndication', id: string, body: unknown): void;
  clearFaults(): void;
  /** Requests seen for an id (or a media path fragment) on a target. */
  count(target: Target, idOrPath?: string): number;
  resetCounts(): void;
  /** Most requests seen in progress at once since the last resetCounts(). */
  peakConcurrency(): number;
  /** Ids with a recorded body in any root. */
  ids(): string[];
  close(): Promise<void>;
}

function mediaKey(raw: string): { key: string; name?: string } {
  const u = new URL(raw);
  let p = u.pathname.replace(/_(normal|bigger|mini|200x200|400x400)(?=\.\w+$|$)/, '');
  const format = u.searchParams.get('format');
  if (format && !/\.\w+$/.test(p)) p += `.${format}`;
  return { key: `${u.hostname}${p}`, name: u.searchParams.get('name') ?? undefined };
}

/** A recorded body's file name: the post id and `.json`. */
export const FIXTURE_FILE = /^(\d+)\.json$/;

/** The recorded bodies of a fixture root: file by post id, per source (`<id>.json` files). */
export function listFixtureFiles(root: string): Record<'fxtwitter' | 'syndication', Map<string, string>> {
  const bodies = { fxtwitter: new Map<string, string>(), syndication: new Map<string, string>() };
  for (const kind of ['fxtwitter', 'syndication'] as const) {
    const dir = path.join(root, 'upstream', kind);
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir)) {
      const m = FIXTURE_FILE.exec(f);
      if (m) bodies[kind].set(m[1], path.join(dir, f));
    }
  }
  return bodies;
}

/** Post ids with a recorded body from either source, in order. */
export function listFixtureIds(bodies: Record<'fxtwitter' | 'syndication', Map<string, string>>): string[] {
  return [...new Set([...bodies.fxtwitter.keys(), ...bodies.syndication.keys()])].sort();
}

function loadRoot(
  root: string,
  bodies: Record<'fxtwitter' | 'syndication', Map<string, string>>,
  media: Map<string, MediaEntry[]>,
) {
  // An id in an earlier root keeps its body.
  const own = listFixtureFiles(root);
  for (const kind of ['fxtwitter', 'syndication'] as const)
    for (const [id, file] of own[kind]) if (!bodies[kind].has(id)) bodies[kind].set(id, file);
  const manifest = path.join(root, 'media', 'manifest.json');
  if (fs.existsSync(manifest)) {
    let entries: Record<string, MediaEntry>;
    try {
      entries = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    } catch (err) {
      throw new Error(`media/manifest.json is not JSON (${(err as Error).message})`);
    }
    for (const [url, e] of Object.entries(entries)) {
      if (!URL.canParse(url) || typeof e?.file !== 'string' || typeof e.contentType !== 'string')
        throw new Error(`media/manifest.json: "${url}" is not an image URL with a file and a contentType`);
      // Named at start: a file that is not there would only show later as a placeholder image.
      // Only files inside media/ are served: `../` in a manifest must not hand out the disk.
      const mediaDir = path.join(root, 'media');
      const file = path.join(mediaDir, e.file);
      const inside = path.relative(mediaDir, file);
      if (inside.startsWith('..') || path.isAbsolute(inside) || !fs.statSync(file, { throwIfNoEntry: false })?.isFile())
        throw new Error(`media/manifest.json: "${url}" names ${e.file}, which is not a file in media/`);
      const { key, name } = mediaKey(url);
      const list = media.get(key) ?? [];
      list.push({ file, contentType: e.contentType, name });
      media.set(key, list);
    }
  }
}

function placeholder(seed: string): Buffer {
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const hue = (k: number) => 80 + ((h >> k) & 0x7f);
  return gradientPng(400, 300, [hue(0), hue(7), hue(14)], [hue(3), hue(10), hue(17)]);
}

export async function startFixtureServer(options: {
  roots: string[];
  port?: number;
  host?: string;
}): Promise<FixtureServer> {
  const bodies = { fxtwitter: new Map<string, string>(), syndication: new Map<string, string>() };
  const media = new Map<string, MediaEntry[]>();
  for (const root of options.roots) if (fs.existsSync(root)) loadRoot(root, bodies, media);
  const faults = new Map<string, Fault>();
  const served = new Map<string, string>();
  const counts = new Map<string, number>();
  const placeholders = new Map<string, Buffer>();
  let inProgress = 0;
  let peak = 0;

  const faultFor = (target: Target, id: string) => faults.get(`${target}:${id}`) ?? faults.get(`*:${id}`);
  const bump = (target: Target, id: string) => counts.set(`${target}:${id}`, (counts.get(`${target}:${id}`) ?? 0) + 1);

  async function send(res: http.ServerResponse, status: number, type: string, body: Buffer | string, fault?: Fault) {
    const buf = Buffer.isBuffer(body) ? body : Buffer.from(body);
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (res.destroyed) return;
    if (fault?.reset) {
      res.socket?.destroy();
      return;
    }
    if (fault?.redirect) {
      res.writeHead(302, { location: fault.redirect }).end();
      return;
    }
    let out = buf;
    let finalStatus = fault?.status ?? status;
    let finalType = fault?.contentType ?? type;
    switch (fault?.body) {
      case 'malformed':
        out = Buffer.from('{"code":200,"tweet":{"id":');
        break;
      case 'truncated':
        // Declares the full length, sends half, then closes: the client sees a cut body.
        res.writeHead(finalStatus, { 'content-type': finalType, 'content-length': buf.length });
        res.write(buf.subarray(0, Math.floor(buf.length / 2)));
        res.socket?.destroy();
        return;
      case 'empty':
        out = Buffer.alloc(0);
        break;
      case 'html':
        out = Buffer.from('<!doctype html><title>Error</title><h1>Something went wrong</h1>');
        finalType = fault.contentType ?? 'text/html';
        break;
      case 'tombstone':
        out = Buffer.from(
          JSON.stringify({
            __typename: 'TweetTombstone',
            tombstone: { text: { text: 'This Post was deleted by the Post author.' } },
          }),
        );
        finalStatus = fault.status ?? 200;
        break;
      case 'age_restricted':
        out = Buffer.from('{"__typename":"TweetTombstone","tombstone":{}}');
        break;
    }
    if (fault?.slowBodyMs) {
      res.writeHead(finalStatus, { 'content-type': finalType, 'content-length': out.length });
      const pieces = 10;
      for (let i = 0; i < pieces && !res.destroyed; i++) {
        res.write(out.subarray(Math.floor((i * out.length) / pieces), Math.floor(((i + 1) * out.length) / pieces)));
        await new Promise((r) => setTimeout(r, fault.slowBodyMs! / pieces));
      }
      res.end();
      return;
    }
    res.writeHead(finalStatus, { 'content-type': finalType, 'content-length': out.length }).end(out);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fixture');
    if (req.method === 'POST' && url.pathname === '/__faults') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const { id, fault, target } = JSON.parse(Buffer.concat(chunks).toString() || '{}');
      server.setFault(String(id), fault ?? null, target ?? '*');
      return send(res, 204, 'text/plain', '');
    }
    let m = /^\/fxtwitter\/(?:[A-Za-z0-9_]+\/)?status\/(\d+)\/?$/.exec(url.pathname);
    if (m) {
      const id = m[1];
      bump('fxtwitter', id);
      const given = served.get(`fxtwitter:${id}`);
      if (given !== undefined) return send(res, 200, 'application/json', given, faultFor('fxtwitter', id));
      const file = bodies.fxtwitter.get(id);
      if (file) return send(res, 200, 'application/json', fs.readFileSync(file), faultFor('fxtwitter', id));
      if (bodies.syndication.has(id)) {
        return send(
          res,
          503,
          'application/json',
          JSON.stringify({ code: 500, message: 'NOT_RECORDED', tweet: null }),
          faultFor('fxtwitter', id),
        );
      }
      return send(
        res,
        404,
        'application/json',
        JSON.stringify({ code: 404, message: 'NOT_FOUND', tweet: null }),
        faultFor('fxtwitter', id),
      );
    }
    if (url.pathname === '/syndication/tweet-result') {
      const id = url.searchParams.get('id') ?? '';
      bump('syndication', id);
      const given = served.get(`syndication:${id}`);
      if (given !== undefined) return send(res, 200, 'application/json', given, faultFor('syndication', id));
      const file = bodies.syndication.get(id);
      if (file) return send(res, 200, 'application/json', fs.readFileSync(file), faultFor('syndication', id));
      return send(res, 404, 'text/plain', '', faultFor('syndication', id));
    }
    m = /^\/media\/([a-z0-9.-]+)(\/.*)$/.exec(url.pathname);
    if (m) {
      const original = `https://${m[1]}${m[2]}${url.search}`;
      const { key, name } = mediaKey(original);
      bump('media', key);
      const fault = [...faults.entries()].find(([k]) => k.startsWith('media:') && key.includes(k.slice(6)))?.[1];
      const entries = media.get(key);
      const entry = entries?.find((e) => e.name === name) ?? entries?.[0];
      if (entry && fs.existsSync(entry.file))
        return send(res, 200, entry.contentType, fs.readFileSync(entry.file), fault);
      let png = placeholders.get(key);
      if (!png) placeholders.set(key, (png = placeholder(key)));
      return send(res, 200, 'image/png', png, fault);
    }
    return send(res, 404, 'text/plain', 'not a fixture path');
  }

  const httpServer = http.createServer((req, res) => {
    peak = Math.max(peak, ++inProgress);
    res.on('close', () => inProgress--);
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const addr = httpServer.address() as AddressInfo;
  const base = `http://${options.host ?? '127.0.0.1'}:${addr.port}`;

  const server: FixtureServer = {
    url: base,
    env: {
      POSTSHOT_FXTWITTER_URL: `${base}/fxtwitter`,
      POSTSHOT_SYNDICATION_URL: `${base}/syndication`,
      POSTSHOT_MEDIA_URL: `${base}/media`,
    },
    setFault(id, fault, target = '*') {
      const key = `${target}:${id}`;
      if (fault) faults.set(key, fault);
      else faults.delete(key);
    },
    clearFaults: () => faults.clear(),
    setBody(target, id, body) {
      if (body === null) served.delete(`${target}:${id}`);
      else served.set(`${target}:${id}`, Buffer.isBuffer(body) ? body.toString() : JSON.stringify(body));
    },
    count(target, idOrPath) {
      let n = 0;
      for (const [k, v] of counts) {
        if (!k.startsWith(`${target}:`)) continue;
        const key = k.slice(target.length + 1);
        // Post ids match exactly; media paths by fragment.
        if (idOrPath === undefined || (target === 'media' ? key.includes(idOrPath) : key === idOrPath)) n += v;
      }
      return n;
    },
    resetCounts: () => {
      counts.clear();
      peak = inProgress;
    },
    peakConcurrency: () => peak,
    ids: () => listFixtureIds(bodies),
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
  return server;
}

import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { PLANS } from '../../quota/plans.ts';
import Type from 'typebox';
import {
  OPTION_NAMES,
  OPTIONS_SCHEMA,
  OptionError,
  parseOptions,
  type RenderOptionsFull,
} from '../../render/options.ts';
import type { Rendered } from '../../render/renderer.ts';
import type { Post } from '../../sources/post.ts';
import { IMAGE_KEY, type StoredImage } from '../../storage/images/interface.ts';
import { runMetered } from '../metered.ts';
import { cachedPost, requirePost, requirePostId } from '../post-lookup.ts';
import { ProblemError, sendProblem } from '../problem.ts';
import { readEnum, rejectUnknownQuery } from '../query.ts';

const RETURN_TYPES = ['buffer', 'url'] as const;

/** The screenshot route's query: the render options plus where the output goes (for OpenAPI). */
export const SCREENSHOT_QUERY_SCHEMA = Type.Object(
  {
    ...OPTIONS_SCHEMA.properties,
    returnType: Type.Enum(RETURN_TYPES, {
      default: 'buffer',
      description: 'buffer: the image itself; url: JSON with the URL of a hosted copy (paid plans).',
    }),
  },
  { additionalProperties: false },
);
const QUERY_NAMES = [...OPTION_NAMES, 'returnType'];

/** The query as render options; a bad value is a 400 naming the parameter, the value and what is allowed. */
function readScreenshotQuery(query: unknown): { options: RenderOptionsFull; returnType: 'buffer' | 'url' } {
  rejectUnknownQuery(query, QUERY_NAMES);
  const q = (query ?? {}) as Record<string, unknown>;
  const rt = typeof q.returnType === 'string' ? q.returnType.trim().toLowerCase() : q.returnType;
  try {
    return { options: parseOptions(q), returnType: readEnum({ returnType: rt }, 'returnType', RETURN_TYPES, 'buffer') };
  } catch (err) {
    if (err instanceof OptionError) throw new ProblemError('invalid_parameter', err.message);
    throw err;
  }
}

/** Documents that could run or load something get the restrictive CSP; images do not need it. */
const isDocument = (name: string) => /(^|\.)(svg|html)$/.test(name);

interface Shot {
  rendered: Rendered;
  /** With returnType=url: where the image was stored. */
  stored?: StoredImage;
}

// Served documents may not run or load anything, whoever opens them.
const DOCUMENT_CSP =
  "default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *";

export function registerScreenshotRoutes(app: FastifyInstance, c: Container): void {
  app.get('/api/v1/screenshot/*', async (request, reply) => {
    let id = '';
    let options = {} as RenderOptionsFull;
    let returnType: 'buffer' | 'url' = 'buffer';
    // A post the cache held whose render it did not: drawn without reading the cache again.
    let post: Post | undefined;
    const result = await runMetered<Shot>(c, request, reply, {
      style: 'screenshot',
      endpoint: 'screenshot',
      cost: 1,
      validate: (caller) => {
        ({ options, returnType } = readScreenshotQuery(request.query));
        id = requirePostId((request.params as { '*': string })['*']);
        if (returnType === 'url' && !PLANS[caller.account.plan].canHostImages) {
          throw new ProblemError(
            'plan_restricted',
            'Hosted image URLs (returnType=url) need a paid plan; use returnType=buffer or upgrade.',
          );
        }
      },
      inHand: async () => {
        // Runs before any credit is reserved: a backgroundImage that cannot be had is refused free.
        if (options.backgroundImage)
          await c.renderer.loadBackground(options.backgroundImage).catch((err: unknown) => {
            throw err instanceof OptionError ? new ProblemError('invalid_parameter', err.message) : err;
          });
        // A hosted URL means a store write, which can fail: that goes the reserve-then-commit way.
        if (returnType !== 'buffer') return undefined;
        post = await cachedPost(c, id);
        const rendered = post && c.renderer.cached(post, options);
        return rendered && { rendered };
      },
      work: async () => {
        const rendered = await c.renderer.render(post ?? (await requirePost(c, id)), options).catch((err: unknown) => {
          if (err instanceof OptionError) throw new ProblemError('invalid_parameter', err.message);
          throw err;
        });
        if (returnType === 'buffer') return { rendered };
        const stored = await c.images.put(rendered.bytes, options.format, rendered.contentType);
        return { rendered, stored };
      },
    });
    if (result.stored)
      return reply
        .header('Cache-Control', 'no-store')
        .send({ url: result.stored.url, format: options.format, tweetId: id });
    if (isDocument(options.format)) reply.header('Content-Security-Policy', DOCUMENT_CSP);
    return reply.type(result.rendered.contentType).send(result.rendered.bytes);
  });

  app.get('/images/:key', async (request, reply) => {
    const { key } = request.params as { key: string };
    const found = IMAGE_KEY.test(key) ? await c.images.get(key) : null;
    if (!found) return sendProblem(request, reply, 'not_found', 'No stored image has this name.');
    if (isDocument(key)) reply.header('Content-Security-Policy', DOCUMENT_CSP);
    return reply
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .type(found.contentType)
      .send(found.bytes);
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { PLANS } from '../../quota/plans.ts';
import type { Rendered } from '../../render/renderer.ts';
import { CONTENT_TYPES, OptionError, type RenderOptionsFull } from '../../render/options.ts';
import type { Post } from '../../sources/post.ts';
import type { StoredImage } from '../../storage/images/interface.ts';
import { type MeteredWork, probeMetered, runMetered } from '../metered.ts';
import { cachedPost, requirePost, requirePostId } from '../post-lookup.ts';
import { ProblemError } from '../problem.ts';
import { inlineFileName, PRIVATE_SHORT_CACHE, setRenderedHeaders, varyOnEncoding } from '../response-headers.ts';
import { readScreenshotQuery, screenshotSchema } from '../schemas/screenshot.ts';
import { assertSchemaValid, documented } from '../schemas/validation.ts';

interface Shot {
  rendered: Rendered;
  /** With returnType=url: where the image was stored. */
  stored?: StoredImage;
}

/** The headers of a successful answer, the same for GET and for HEAD (which has no bytes). */
function setShotHeaders(reply: FastifyReply, id: string, contentType: string, returnType: 'buffer' | 'url'): void {
  if (returnType === 'url') {
    const json = 'application/json; charset=utf-8';
    varyOnEncoding(reply.header('Cache-Control', 'no-store').type(json), json);
    return;
  }
  varyOnEncoding(setRenderedHeaders(reply, contentType), contentType)
    .header('Cache-Control', PRIVATE_SHORT_CACHE)
    .header('Content-Disposition', inlineFileName(id, contentType));
}

export function registerScreenshotRoutes(app: FastifyInstance, c: Container): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    let id = '';
    let options = {} as RenderOptionsFull;
    let returnType: 'buffer' | 'url' = 'buffer';
    // A post the cache held whose render it did not: drawn without reading the cache again.
    let post: Post | undefined;
    const shot: MeteredWork<Shot> = {
      style: 'screenshot',
      endpoint: 'screenshot',
      cost: 1,
      validate: (caller) => {
        const postInPath = (request.params as { '*'?: string })['*'];
        ({ options, returnType } = readScreenshotQuery(request.query, postInPath));
        id = requirePostId(postInPath);
        // The query was read above (case-insensitive values); the schema still checks the path.
        assertSchemaValid(request);
        if (returnType === 'url' && !PLANS[caller.account.plan].canHostImages) {
          throw new ProblemError(
            'plan_restricted',
            'Hosted image URLs (returnType=url) need a paid plan: use returnType=buffer, or ask the operator of this service for a paid plan.',
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
      work: async (meter) => {
        const target = post ?? (await requirePost(c, id));
        const context = { signal: meter.signal, owner: meter.caller.account.id };
        const rendered = await c.renderer.render(target, options, context).catch((err: unknown) => {
          if (err instanceof OptionError) throw new ProblemError('invalid_parameter', err.message);
          throw err;
        });
        if (returnType === 'buffer') return { rendered };
        const stored = await c.images.put(rendered.bytes, options.format, rendered.contentType);
        return { rendered, stored };
      },
      probe: async () => {
        await cachedPost(c, id);
      },
    };
    if (request.method === 'HEAD') {
      await probeMetered(c, request, reply, shot);
      setShotHeaders(reply, id, CONTENT_TYPES[options.format], returnType);
      return reply.send();
    }
    const result = await runMetered<Shot>(c, request, reply, shot);
    setShotHeaders(reply, id, result.rendered.contentType, returnType);
    if (result.stored) return reply.send({ url: result.stored.url, format: options.format, tweetId: id });
    return reply.send(result.rendered.bytes);
  };
  // Without an id (`/api/v1/screenshot/`) the answer is 400 invalid_post_id, not a missing route.
  // HEAD is its own hidden route: the document has one operation per path and method.
  app.route({
    method: 'GET',
    url: '/api/v1/screenshot/*',
    exposeHeadRoute: false,
    ...documented(screenshotSchema),
    handler: handler,
  });
  app.route({
    method: 'HEAD',
    url: '/api/v1/screenshot/*',
    schema: { hide: true },
    config: { answersHead: true },
    handler,
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/v1/screenshot',
    schema: { hide: true },
    config: { answersHead: true },
    handler,
  });
}

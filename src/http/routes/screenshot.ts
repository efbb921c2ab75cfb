import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { PLANS } from '../../quota/plans.ts';
import { CONTENT_TYPES, type RenderFormat, type Rendered } from '../../render/renderer.ts';
import type { ThemeName } from '../../render/theme.ts';
import type { Post } from '../../sources/post.ts';
import type { StoredImage } from '../../storage/images/interface.ts';
import { type MeteredWork, probeMetered, runMetered } from '../metered.ts';
import { cachedPost, requirePost, requirePostId } from '../post-lookup.ts';
import { ProblemError } from '../problem.ts';
import { readEnum, rejectUnknownQuery } from '../query.ts';
import { inlineFileName, PRIVATE_SHORT_CACHE, setRenderedHeaders, varyOnEncoding } from '../response-headers.ts';
import { FORMATS, RETURN_TYPES, screenshotSchema, THEMES } from '../schemas/screenshot.ts';
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
    let format: RenderFormat = 'svg';
    let theme: ThemeName = 'light';
    let returnType: 'buffer' | 'url' = 'buffer';
    // A post the cache held whose render it did not: drawn without reading the cache again.
    let post: Post | undefined;
    const shot: MeteredWork<Shot> = {
      style: 'screenshot',
      endpoint: 'screenshot',
      cost: 1,
      validate: (caller) => {
        rejectUnknownQuery(request.query, ['format', 'theme', 'returnType']);
        format = readEnum(request.query, 'format', FORMATS, 'svg');
        theme = readEnum(request.query, 'theme', THEMES, 'light');
        returnType = readEnum(request.query, 'returnType', RETURN_TYPES, 'buffer');
        id = requirePostId((request.params as { '*'?: string })['*']);
        assertSchemaValid(request);
        if (returnType === 'url' && !PLANS[caller.account.plan].canHostImages) {
          throw new ProblemError(
            'plan_restricted',
            'Hosted image URLs (returnType=url) need a paid plan; use returnType=buffer or upgrade.',
          );
        }
      },
      inHand: async () => {
        // A hosted URL means a store write, which can fail: that goes the reserve-then-commit way.
        if (returnType !== 'buffer') return undefined;
        post = await cachedPost(c, id);
        const rendered = post && c.renderer.cached(post, { format, theme });
        return rendered && { rendered };
      },
      work: async () => {
        const rendered = await c.renderer.render(post ?? (await requirePost(c, id)), { format, theme });
        if (returnType === 'buffer') return { rendered };
        const stored = await c.images.put(rendered.bytes, format, rendered.contentType);
        return { rendered, stored };
      },
      probe: async () => {
        await cachedPost(c, id);
      },
    };
    if (request.method === 'HEAD') {
      await probeMetered(c, request, reply, shot);
      setShotHeaders(reply, id, CONTENT_TYPES[format as RenderFormat], returnType);
      return reply.send();
    }
    const result = await runMetered<Shot>(c, request, reply, shot);
    setShotHeaders(reply, id, result.rendered.contentType, returnType);
    if (result.stored) return reply.send({ url: result.stored.url, format, tweetId: id });
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
  app.route({ method: 'HEAD', url: '/api/v1/screenshot/*', schema: { hide: true }, handler: handler });
  app.route({ method: ['GET', 'HEAD'], url: '/api/v1/screenshot', schema: { hide: true }, handler });
}

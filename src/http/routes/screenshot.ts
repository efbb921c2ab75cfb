import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { PLANS } from '../../quota/plans.ts';
import type { RenderFormat, Rendered } from '../../render/renderer.ts';
import type { ThemeName } from '../../render/theme.ts';
import type { Post } from '../../sources/post.ts';
import { IMAGE_KEY, type StoredImage } from '../../storage/images/interface.ts';
import { runMetered } from '../metered.ts';
import { cachedPost, requirePost, requirePostId } from '../post-lookup.ts';
import { ProblemError, sendProblem } from '../problem.ts';
import { readEnum, rejectUnknownQuery } from '../query.ts';
import { FORMATS, RETURN_TYPES, screenshotSchema, THEMES } from '../schemas/screenshot.ts';
import { imageSchema } from '../schemas/service.ts';
import { assertSchemaValid, documented } from '../schemas/validation.ts';

interface Shot {
  rendered: Rendered;
  /** With returnType=url: where the image was stored. */
  stored?: StoredImage;
}

// Served documents may not run or load anything, whoever opens them.
const DOCUMENT_CSP =
  "default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors *";

export function registerScreenshotRoutes(app: FastifyInstance, c: Container): void {
  app.get('/api/v1/screenshot/*', documented(screenshotSchema), async (request, reply) => {
    let id = '';
    let format: RenderFormat = 'svg';
    let theme: ThemeName = 'light';
    let returnType: 'buffer' | 'url' = 'buffer';
    // A post the cache held whose render it did not: drawn without reading the cache again.
    let post: Post | undefined;
    const result = await runMetered<Shot>(c, request, reply, {
      style: 'screenshot',
      endpoint: 'screenshot',
      cost: 1,
      validate: (caller) => {
        rejectUnknownQuery(request.query, ['format', 'theme', 'returnType']);
        format = readEnum(request.query, 'format', FORMATS, 'svg');
        theme = readEnum(request.query, 'theme', THEMES, 'light');
        returnType = readEnum(request.query, 'returnType', RETURN_TYPES, 'buffer');
        id = requirePostId((request.params as { '*': string })['*']);
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
    });
    if (result.stored)
      return reply.header('Cache-Control', 'no-store').send({ url: result.stored.url, format, tweetId: id });
    if ((format as RenderFormat) !== 'png') reply.header('Content-Security-Policy', DOCUMENT_CSP);
    return reply.type(result.rendered.contentType).send(result.rendered.bytes);
  });

  app.get('/images/:key', documented(imageSchema), async (request, reply) => {
    const { key } = request.params as { key: string };
    const found = IMAGE_KEY.test(key) ? await c.images.get(key) : null;
    if (!found) return sendProblem(request, reply, 'not_found', 'No stored image has this name.');
    if (!key.endsWith('.png')) reply.header('Content-Security-Policy', DOCUMENT_CSP);
    return reply
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .type(found.contentType)
      .send(found.bytes);
  });
}

import Type from 'typebox';

/** Name the OpenAPI document gives the wildcard path segment that carries a post id (see openapi.ts). */
export const WILDCARD_PARAM = 'tweetId';

/**
 * The post routes take the rest of the path (`/*`) so that a post URL need not be URL-encoded;
 * the document shows that segment as `{tweetId}`.
 */
export const TWEET_ID_PARAMS = Type.Object({
  '*': Type.String({
    minLength: 1,
    description:
      'Numeric post id (1-19 digits) or the post URL (x.com, twitter.com, fxtwitter.com, vxtwitter.com, …), URL-encoded.',
    examples: ['20'],
  }),
});

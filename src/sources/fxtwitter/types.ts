// FxTwitter API v1 (`/status/:id`) bodies, as recorded (../shared/fixtures/upstream/fxtwitter), as
// TypeBox schemas: the one definition of the shape, the TypeScript types derived from it. Only the
// fields normalize.ts reads are declared (others pass unchecked); everything is optional, since
// trimmed captures omit raw_text, views and author details.
import Type from 'typebox';
import { bodyValidator, Handle, Indices, Opt, OptNullable } from '../schema.ts';

export const FxFacet = Type.Object({
  type: Opt(Type.String()),
  indices: Opt(Indices),
  display: Opt(Type.String()),
  original: Opt(Type.String()),
  replacement: Opt(Type.String()),
});

export const FxAuthor = Type.Object({
  id: Opt(Type.String()),
  name: Opt(Type.String()),
  screen_name: Opt(Handle),
  avatar_url: OptNullable(Type.String()),
  verification: OptNullable(Type.Object({ verified: Opt(Type.Boolean()), type: OptNullable(Type.String()) })),
  profile_image_shape: Opt(Type.String()),
});

const FxVideoFormat = Type.Object({
  url: Opt(Type.String()),
  bitrate: Opt(Type.Number()),
  container: Opt(Type.String()),
});

export const FxMedia = Type.Object({
  type: Opt(Type.String()),
  url: Opt(Type.String()),
  thumbnail_url: Opt(Type.String()),
  width: Opt(Type.Number()),
  height: Opt(Type.Number()),
  /** Seconds. */
  duration: Opt(Type.Number({ minimum: 0 })),
  altText: OptNullable(Type.String()),
  formats: Opt(Type.Array(FxVideoFormat)),
  variants: Opt(
    Type.Array(Type.Object({ url: Opt(Type.String()), bitrate: Opt(Type.Number()), content_type: Opt(Type.String()) })),
  ),
});

const FxPoll = Type.Object({
  choices: Opt(Type.Array(Type.Object({ label: Opt(Type.String()), count: Opt(Type.Number()) }))),
  total_votes: Opt(Type.Number()),
  ends_at: Opt(Type.String()),
  time_left_en: Opt(Type.String()),
});

const Count = OptNullable(Type.Number());

const FxTweetSchema = Type.Cyclic(
  {
    FxTweet: Type.Object({
      id: Opt(Type.String()),
      text: Opt(Type.String()),
      raw_text: Opt(
        Type.Object({
          text: Opt(Type.String()),
          display_text_range: Opt(Indices),
          facets: Opt(Type.Array(FxFacet)),
        }),
      ),
      author: Opt(FxAuthor),
      replies: Count,
      retweets: Count,
      likes: Count,
      bookmarks: Count,
      quotes: Count,
      views: Count,
      created_at: Opt(Type.String()),
      /** Seconds since the epoch; Date's range ends at 8.64e12 s. */
      created_timestamp: Opt(Type.Number({ minimum: 0, maximum: 8.64e12 })),
      is_note_tweet: Opt(Type.Boolean()),
      lang: OptNullable(Type.String()),
      replying_to: OptNullable(Type.String()),
      replying_to_status: OptNullable(Type.String()),
      media: Opt(
        Type.Object({
          all: Opt(Type.Array(FxMedia)),
          photos: Opt(Type.Array(FxMedia)),
          videos: Opt(Type.Array(FxMedia)),
          external: Opt(
            Type.Object({
              url: Opt(Type.String()),
              width: Opt(Type.Number()),
              height: Opt(Type.Number()),
              thumbnail_url: Opt(Type.String()),
            }),
          ),
        }),
      ),
      poll: Opt(FxPoll),
      quote: Opt(Type.Ref('FxTweet')),
    }),
  },
  'FxTweet',
);

export const FxResponse = Type.Object({
  code: Opt(Type.Number()),
  message: Opt(Type.String()),
  tweet: OptNullable(FxTweetSchema),
});

export type FxFacet = Type.Static<typeof FxFacet>;
export type FxAuthor = Type.Static<typeof FxAuthor>;
export type FxMedia = Type.Static<typeof FxMedia>;
export type FxTweet = Type.Static<typeof FxTweetSchema>;
export type FxResponse = Type.Static<typeof FxResponse>;

/** Checks a parsed FxTwitter body against FxResponse. */
export const checkFxResponse = bodyValidator(FxResponse);

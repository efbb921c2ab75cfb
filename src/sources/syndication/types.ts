// The `tweet-result` body of X's syndication endpoint, as recorded (../shared/fixtures/upstream/syndication),
// as TypeBox schemas: the one definition of the shape, the TypeScript types derived from it. Only the
// fields normalize.ts reads are declared (others pass unchecked); everything is optional, since 2026
// bodies omit empty entity arrays and can omit entities, user and media fields.
import Type from 'typebox';
import { bodyValidator, Handle, Indices, Opt } from '../schema.ts';

const Text = Opt(Type.String());
const Num = Opt(Type.Number());

const SynEntities = Type.Object({
  hashtags: Opt(Type.Array(Type.Object({ indices: Opt(Indices), text: Text }))),
  urls: Opt(Type.Array(Type.Object({ indices: Opt(Indices), display_url: Text, expanded_url: Text, url: Text }))),
  user_mentions: Opt(Type.Array(Type.Object({ indices: Opt(Indices), screen_name: Text }))),
  symbols: Opt(Type.Array(Type.Object({ indices: Opt(Indices), text: Text }))),
  media: Opt(Type.Array(Type.Object({ indices: Opt(Indices) }))),
});

export const SynUser = Type.Object({
  id_str: Text,
  name: Text,
  screen_name: Opt(Handle),
  is_blue_verified: Opt(Type.Boolean()),
  verified: Opt(Type.Boolean()),
  verified_type: Text,
  profile_image_shape: Text,
  profile_image_url_https: Text,
});

const SynVideoVariant = Type.Object({ bitrate: Num, content_type: Text, url: Text });

export const SynMediaDetails = Type.Object({
  ext_alt_text: Text,
  indices: Opt(Indices),
  media_url_https: Text,
  original_info: Opt(Type.Object({ height: Num, width: Num })),
  type: Text,
  video_info: Opt(
    Type.Object({ duration_millis: Opt(Type.Number({ minimum: 0 })), variants: Opt(Type.Array(SynVideoVariant)) }),
  ),
});

const SynPhoto = Type.Object({ url: Text, width: Num, height: Num, accessibilityLabel: Text });

const SynVideo = Type.Object({
  durationMs: Opt(Type.Number({ minimum: 0 })),
  poster: Text,
  variants: Opt(Type.Array(Type.Object({ type: Text, src: Text }))),
});

const SynCardValue = Type.Object({
  string_value: Text,
  boolean_value: Opt(Type.Boolean()),
  image_value: Opt(Type.Object({ height: Num, width: Num, url: Text })),
});

export const SynCard = Type.Object({
  name: Text,
  url: Text,
  binding_values: Opt(Type.Record(Type.String(), SynCardValue)),
});

const SynArticle = Type.Object({
  rest_id: Text,
  title: Text,
  preview_text: Text,
  cover_media: Opt(
    Type.Object({
      media_info: Opt(Type.Object({ original_img_url: Text, original_img_width: Num, original_img_height: Num })),
    }),
  ),
});

const SynTweetSchema = Type.Cyclic(
  {
    SynTweet: Type.Object({
      __typename: Text,
      id_str: Text,
      text: Text,
      lang: Text,
      created_at: Text,
      display_text_range: Opt(Indices),
      entities: Opt(SynEntities),
      user: Opt(SynUser),
      favorite_count: Num,
      conversation_count: Num,
      reply_count: Num,
      retweet_count: Num,
      quote_count: Num,
      in_reply_to_screen_name: Text,
      in_reply_to_status_id_str: Text,
      mediaDetails: Opt(Type.Array(SynMediaDetails)),
      photos: Opt(Type.Array(SynPhoto)),
      video: Opt(SynVideo),
      card: Opt(SynCard),
      article: Opt(SynArticle),
      quoted_tweet: Opt(Type.Ref('SynTweet')),
      parent: Opt(Type.Ref('SynTweet')),
      note_tweet: Opt(Type.Object({ id: Text })),
      /** Only its presence is read. */
      tombstone: Opt(Type.Unknown()),
    }),
  },
  'SynTweet',
);

export type SynUser = Type.Static<typeof SynUser>;
export type SynMediaDetails = Type.Static<typeof SynMediaDetails>;
export type SynCard = Type.Static<typeof SynCard>;
export type SynTweet = Type.Static<typeof SynTweetSchema>;

/** Checks a parsed tweet-result body against SynTweet. */
export const checkSynTweet = bodyValidator(SynTweetSchema);

// FxTwitter API v1 (`/status/:id`) bodies, as recorded (../shared/fixtures/upstream/fxtwitter).
// Everything is optional: trimmed captures omit raw_text, views and author details.

export interface FxFacet {
  type?: 'url' | 'media' | 'mention' | 'hashtag' | 'symbol' | 'cashtag' | string;
  indices?: [number, number];
  id?: string;
  display?: string;
  original?: string;
  replacement?: string;
}

export interface FxAuthor {
  id?: string;
  name?: string;
  screen_name?: string;
  avatar_url?: string | null;
  banner_url?: string | null;
  description?: string;
  location?: string;
  url?: string;
  followers?: number;
  following?: number;
  joined?: string;
  likes?: number;
  media_count?: number;
  tweets?: number;
  protected?: boolean;
  website?: { url?: string; display_url?: string } | null;
  verification?: {
    verified?: boolean;
    verified_at?: string | null;
    type?: 'individual' | 'business' | 'government' | string | null;
  } | null;
  avatar_color?: string | null;
  profile_image_shape?: string;
}

export interface FxVideoFormat {
  url?: string;
  bitrate?: number;
  container?: string;
  codec?: string;
}

export interface FxMedia {
  id?: string;
  type?: 'photo' | 'video' | 'gif' | string;
  url?: string;
  thumbnail_url?: string;
  width?: number;
  height?: number;
  duration?: number;
  format?: string;
  altText?: string;
  formats?: FxVideoFormat[];
  variants?: { url?: string; bitrate?: number; content_type?: string }[];
}

export interface FxPoll {
  choices?: { label?: string; count?: number; percentage?: number }[];
  total_votes?: number;
  ends_at?: string;
  time_left_en?: string;
}

export interface FxTweet {
  url?: string;
  id?: string;
  text?: string;
  raw_text?: { text?: string; display_text_range?: [number, number]; facets?: FxFacet[] };
  author?: FxAuthor;
  replies?: number | null;
  retweets?: number | null;
  likes?: number | null;
  bookmarks?: number | null;
  quotes?: number | null;
  views?: number | null;
  created_at?: string;
  created_timestamp?: number;
  possibly_sensitive?: boolean;
  is_note_tweet?: boolean;
  community_note?: unknown;
  lang?: string | null;
  replying_to?: string | null;
  replying_to_status?: string | null;
  media?: {
    all?: FxMedia[];
    photos?: FxMedia[];
    videos?: FxMedia[];
    mosaic?: unknown;
    external?: { type?: string; url?: string; width?: number; height?: number; thumbnail_url?: string };
  };
  poll?: FxPoll;
  quote?: FxTweet;
  source?: string;
  twitter_card?: string;
  color?: string | null;
  provider?: string;
  reposted_by?: unknown;
}

export interface FxResponse {
  code?: number;
  message?: string;
  tweet?: FxTweet | null;
}

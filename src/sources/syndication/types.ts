// The `tweet-result` body of X's syndication endpoint, as recorded (../shared/fixtures/upstream/syndication).
// Everything is optional: 2026 bodies omit empty entity arrays and can omit entities, user and media fields.

export interface SynIndices {
  indices?: [number, number];
}
export interface SynUrlEntity extends SynIndices {
  display_url?: string;
  expanded_url?: string;
  url?: string;
}
export interface SynMentionEntity extends SynIndices {
  id_str?: string;
  name?: string;
  screen_name?: string;
}
export interface SynHashtagEntity extends SynIndices {
  text?: string;
}
export interface SynEntities {
  hashtags?: SynHashtagEntity[];
  urls?: SynUrlEntity[];
  user_mentions?: SynMentionEntity[];
  symbols?: SynHashtagEntity[];
  media?: SynUrlEntity[];
}

export interface SynUser {
  id_str?: string;
  name?: string;
  screen_name?: string;
  is_blue_verified?: boolean;
  verified?: boolean;
  verified_type?: 'Business' | 'Government' | string;
  profile_image_shape?: 'Circle' | 'Square' | 'Hexagon' | string;
  profile_image_url_https?: string;
  highlighted_label?: {
    badge?: { url?: string };
    description?: string;
    url?: { url?: string; url_type?: string };
    user_label_display_type?: string;
    user_label_type?: string;
  };
}

export interface SynVideoVariant {
  bitrate?: number;
  content_type?: string;
  url?: string;
}

export interface SynMediaDetails {
  display_url?: string;
  expanded_url?: string;
  ext_alt_text?: string;
  ext_media_availability?: { status?: string };
  indices?: [number, number];
  media_url_https?: string;
  original_info?: { height?: number; width?: number; focus_rects?: unknown[] };
  sizes?: Record<string, { h?: number; w?: number; resize?: string }>;
  type?: 'photo' | 'video' | 'animated_gif' | string;
  url?: string;
  video_info?: {
    aspect_ratio?: [number, number];
    duration_millis?: number;
    variants?: SynVideoVariant[];
  };
  additional_media_info?: Record<string, unknown>;
}

export interface SynPhoto {
  backgroundColor?: { red?: number; green?: number; blue?: number };
  cropCandidates?: { x?: number; y?: number; w?: number; h?: number }[];
  expandedUrl?: string;
  url?: string;
  width?: number;
  height?: number;
  accessibilityLabel?: string;
}

export interface SynVideo {
  aspectRatio?: [number, number];
  contentType?: string;
  durationMs?: number;
  mediaAvailability?: { status?: string };
  poster?: string;
  variants?: { type?: string; src?: string }[];
  videoId?: { type?: string; id?: string };
  viewCount?: number;
}

export interface SynCardValue {
  type?: 'STRING' | 'IMAGE' | 'BOOLEAN' | 'USER' | string;
  string_value?: string;
  boolean_value?: boolean;
  image_value?: { height?: number; width?: number; url?: string; alt?: string };
  scribe_key?: string;
}

export interface SynCard {
  name?: string;
  url?: string;
  binding_values?: Record<string, SynCardValue | undefined>;
  card_platform?: unknown;
}

export interface SynArticle {
  id?: string;
  rest_id?: string;
  title?: string;
  preview_text?: string;
  cover_media?: {
    id?: string;
    media_info?: {
      __typename?: string;
      original_img_url?: string;
      original_img_width?: number;
      original_img_height?: number;
    };
  };
}

export interface SynTweet {
  __typename?: 'Tweet' | 'TweetTombstone' | string;
  id_str?: string;
  text?: string;
  lang?: string;
  created_at?: string;
  display_text_range?: [number, number];
  entities?: SynEntities;
  user?: SynUser;
  favorite_count?: number;
  conversation_count?: number;
  reply_count?: number;
  retweet_count?: number;
  quote_count?: number;
  possibly_sensitive?: boolean;
  in_reply_to_screen_name?: string;
  in_reply_to_status_id_str?: string;
  in_reply_to_user_id_str?: string;
  mediaDetails?: SynMediaDetails[];
  photos?: SynPhoto[];
  video?: SynVideo;
  card?: SynCard;
  article?: SynArticle;
  quoted_tweet?: SynTweet;
  parent?: SynTweet;
  note_tweet?: { id?: string };
  edit_control?: unknown;
  isEdited?: boolean;
  isStaleEdit?: boolean;
  news_action_type?: string;
  tombstone?: { text?: { text?: string; entities?: unknown[]; rtl?: boolean } };
}

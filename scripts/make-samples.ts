// Writes the package's own sample posts (in the upstream shapes) and their generated images to
// samples/. They drive the demo, the core tests and the reference renders. Run:
//   node --import tsx scripts/make-samples.ts
import fs from 'node:fs';
import path from 'node:path';
import { gradientPng } from '../src/util/png-encode.ts';

const root = path.resolve(import.meta.dirname, '..', 'samples');
const manifest: Record<string, { file: string; contentType: string }> = {};

function image(
  url: string,
  file: string,
  w: number,
  h: number,
  from: [number, number, number],
  to: [number, number, number],
) {
  fs.mkdirSync(path.join(root, 'media'), { recursive: true });
  fs.writeFileSync(path.join(root, 'media', file), gradientPng(w, h, from, to));
  manifest[url] = { file, contentType: 'image/png' };
}

/** Code point indices of `needle` in `text` (the nth occurrence). */
function at(text: string, needle: string, nth = 0): [number, number] {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
  if (i < 0) throw new Error(`"${needle}" not in text`);
  const start = Array.from(text.slice(0, i)).length;
  return [start, start + Array.from(needle).length];
}
const len = (s: string) => Array.from(s).length;

const avatars = {
  sample: 'https://pbs.twimg.com/profile_images/1900000000000000001/sample_normal.png',
  acme: 'https://pbs.twimg.com/profile_images/1900000000000000002/acme_normal.png',
  city: 'https://pbs.twimg.com/profile_images/1900000000000000003/city_normal.png',
  dana: 'https://pbs.twimg.com/profile_images/1900000000000000004/dana_normal.png',
  layla: 'https://pbs.twimg.com/profile_images/1900000000000000005/layla_normal.png',
};
image(avatars.sample.replace('_normal', '_400x400'), 'avatar-sample.png', 200, 200, [29, 155, 240], [120, 86, 255]);
image(avatars.acme.replace('_normal', '_400x400'), 'avatar-acme.png', 200, 200, [250, 180, 40], [230, 80, 30]);
image(avatars.city.replace('_normal', '_400x400'), 'avatar-city.png', 200, 200, [60, 140, 90], [20, 70, 120]);
image(avatars.dana.replace('_normal', '_400x400'), 'avatar-dana.png', 200, 200, [240, 120, 170], [120, 40, 160]);
image(avatars.layla.replace('_normal', '_400x400'), 'avatar-layla.png', 200, 200, [40, 170, 170], [20, 60, 90]);

const users = {
  sample: {
    id_str: '1900000000000000101',
    name: 'Postshot Samples 📸',
    screen_name: 'postshot_samples',
    is_blue_verified: true,
    verified: false,
    profile_image_shape: 'Circle',
    profile_image_url_https: avatars.sample,
  },
  acme: {
    id_str: '1900000000000000102',
    name: 'Acme Corp',
    screen_name: 'acme',
    is_blue_verified: true,
    verified: false,
    verified_type: 'Business',
    profile_image_shape: 'Square',
    profile_image_url_https: avatars.acme,
  },
  city: {
    id_str: '1900000000000000103',
    name: 'City of Example',
    screen_name: 'cityofexample',
    is_blue_verified: true,
    verified: false,
    verified_type: 'Government',
    profile_image_shape: 'Circle',
    profile_image_url_https: avatars.city,
  },
  dana: {
    id_str: '1900000000000000104',
    name: 'Dana Doe 👩🏽‍💻',
    screen_name: 'danadoe',
    is_blue_verified: false,
    verified: false,
    profile_image_shape: 'Circle',
    profile_image_url_https: avatars.dana,
  },
  layla: {
    id_str: '1900000000000000105',
    name: 'ليلى حداد',
    screen_name: 'layla_h',
    is_blue_verified: true,
    verified: false,
    profile_image_shape: 'Circle',
    profile_image_url_https: avatars.layla,
  },
};

function photo(
  id: string,
  w: number,
  h: number,
  colors: [[number, number, number], [number, number, number]],
  indices: [number, number],
  tco: string,
  alt?: string,
) {
  const url = `https://pbs.twimg.com/media/${id}.png`;
  image(`${url}?name=small`, `${id}.png`, Math.round(w / 2), Math.round(h / 2), colors[0], colors[1]);
  return {
    display_url: `pic.x.com/${tco}`,
    expanded_url: `https://x.com/i/status/photo/1`,
    indices,
    media_url_https: url,
    original_info: { width: w, height: h },
    type: 'photo',
    url: `https://t.co/${tco}`,
    ...(alt ? { ext_alt_text: alt } : {}),
  };
}

function syndication(id: string, body: Record<string, unknown>) {
  const dir = path.join(root, 'upstream', 'syndication');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, `${id}.json`),
    `${JSON.stringify({ __typename: 'Tweet', id_str: id, lang: 'en', ...body }, null, 2)}\n`,
  );
}

function fxtwitter(id: string, tweet: Record<string, unknown>) {
  const dir = path.join(root, 'upstream', 'fxtwitter');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, `${id}.json`),
    `${JSON.stringify({ code: 200, message: 'OK', tweet: { id, ...tweet } }, null, 2)}\n`,
  );
}

function fxAuthor(u: (typeof users)[keyof typeof users], type: 'individual' | 'business' | 'government' | null) {
  return {
    id: u.id_str,
    name: u.name,
    screen_name: u.screen_name,
    avatar_url: u.profile_image_url_https.replace('_normal', '_200x200'),
    verification: type ? { verified: true, type } : { verified: false },
  };
}

// 1. Entities, emoji (ZWJ, flags, skin tones), cashtag, URL, line breaks.
{
  const text =
    'Shipping day 🚀 Thanks @danadoe &amp; team! #launch $ACME is up 👩🏽‍🚀👨‍👩‍👧‍👦🏳️‍🌈🇯🇵🇧🇷👍🏿\nRead more: https://t.co/abc123DEF0\n\nLine three ✓';
  syndication('1900000000000000001', {
    created_at: '2026-03-21T20:50:14.000Z',
    display_text_range: [0, len(text)],
    text,
    entities: {
      user_mentions: [
        { id_str: users.dana.id_str, name: users.dana.name, screen_name: 'danadoe', indices: at(text, '@danadoe') },
      ],
      hashtags: [{ text: 'launch', indices: at(text, '#launch') }],
      symbols: [{ text: 'ACME', indices: at(text, '$ACME') }],
      urls: [
        {
          url: 'https://t.co/abc123DEF0',
          expanded_url: 'https://example.com/blog/shipping-day?ref=x',
          display_url: 'example.com/blog/shipping…',
          indices: at(text, 'https://t.co/abc123DEF0'),
        },
      ],
    },
    user: users.sample,
    favorite_count: 5678,
    conversation_count: 12,
  });
}

// 2. Arabic, right to left, with an Arabic hashtag and a Latin mention.
{
  const text =
    'مرحبا بالعالم! هذا منشور تجريبي باللغة العربية مع وسم #اختبار وإشارة إلى @danadoe والرقم 2026.\nسطر ثانٍ من النص.';
  syndication('1900000000000000002', {
    lang: 'ar',
    created_at: '2026-04-02T09:15:00.000Z',
    display_text_range: [0, len(text)],
    text,
    entities: {
      hashtags: [{ text: 'اختبار', indices: at(text, '#اختبار') }],
      user_mentions: [
        { id_str: users.dana.id_str, name: users.dana.name, screen_name: 'danadoe', indices: at(text, '@danadoe') },
      ],
    },
    user: users.layla,
    favorite_count: 321,
    conversation_count: 4,
  });
}

// 3. Hebrew mixed with English (FxTwitter shape).
fxtwitter('1900000000000000003', {
  url: 'https://x.com/danadoe/status/1900000000000000003',
  text: 'שלום עולם! זה פוסט לדוגמה בעברית עם מילה באנגלית: postshot, ומספר 42.',
  author: fxAuthor(users.dana, null),
  replies: 3,
  retweets: 7,
  likes: 99,
  views: 1234,
  created_at: 'Thu Apr 02 10:00:00 +0000 2026',
  created_timestamp: 1775124000,
  lang: 'iw',
  is_note_tweet: false,
  replying_to: null,
  replying_to_status: null,
});

// 4. Chinese, Japanese and Korean (FxTwitter shape).
fxtwitter('1900000000000000004', {
  url: 'https://x.com/postshot_samples/status/1900000000000000004',
  text: '你好，世界！这是一个中文示例帖子。\n日本語のテキストも表示できます。カタカナとひらがな。\n한국어 문장도 잘 보입니다.',
  raw_text: {
    text: '你好，世界！这是一个中文示例帖子。\n日本語のテキストも表示できます。カタカナとひらがな。\n한국어 문장도 잘 보입니다.',
    facets: [],
  },
  author: fxAuthor(users.sample, 'individual'),
  replies: 1,
  retweets: 2,
  likes: 3,
  bookmarks: 4,
  quotes: 0,
  views: 56,
  created_at: 'Fri Apr 03 01:02:03 +0000 2026',
  created_timestamp: 1775178123,
  lang: 'zh',
  is_note_tweet: false,
});

// 5. Thai and Devanagari.
{
  const text = 'สวัสดีชาวโลก ภาษาไทยไม่มีช่องว่างระหว่างคำ\nनमस्ते दुनिया, यह हिंदी में एक उदाहरण है।';
  syndication('1900000000000000005', {
    lang: 'th',
    created_at: '2026-04-04T12:00:00.000Z',
    display_text_range: [0, len(text)],
    text,
    user: users.dana,
    favorite_count: 42,
  });
}

// 6. Two photos, one with alt text.
{
  const text = 'Two photos side by side https://t.co/TwoPhotos1';
  const idx = at(text, 'https://t.co/TwoPhotos1');
  syndication('1900000000000000006', {
    created_at: '2026-04-05T08:00:00.000Z',
    display_text_range: [0, idx[0] - 1],
    text,
    entities: {
      media: [
        {
          display_url: 'pic.x.com/TwoPhotos1',
          expanded_url: 'https://x.com/i/status/photo/1',
          indices: idx,
          url: 'https://t.co/TwoPhotos1',
        },
      ],
    },
    mediaDetails: [
      photo(
        'PS2a',
        1200,
        900,
        [
          [250, 200, 120],
          [220, 90, 60],
        ],
        idx,
        'TwoPhotos1',
        'An orange gradient',
      ),
      photo(
        'PS2b',
        900,
        1200,
        [
          [120, 200, 250],
          [60, 90, 220],
        ],
        idx,
        'TwoPhotos1',
      ),
    ],
    user: users.dana,
    favorite_count: 10,
    conversation_count: 1,
  });
}

// 7. Three photos (FxTwitter shape).
{
  const photos = [
    ['PS3a', 1200, 800, [200, 240, 200], [40, 120, 60]],
    ['PS3b', 800, 800, [240, 220, 200], [140, 80, 40]],
    ['PS3c', 800, 1000, [220, 200, 240], [80, 40, 140]],
  ] as const;
  for (const [id, w, h, a, b] of photos)
    image(`https://pbs.twimg.com/media/${id}.png?name=small`, `${id}.png`, w / 2, h / 2, [...a], [...b]);
  fxtwitter('1900000000000000007', {
    url: 'https://x.com/postshot_samples/status/1900000000000000007',
    text: 'Three photos, X-style grid',
    raw_text: {
      text: 'Three photos, X-style grid https://t.co/Three3Pics',
      display_text_range: [0, 26],
      facets: [
        { type: 'media', indices: [27, 50], original: 'https://t.co/Three3Pics', display: 'pic.x.com/Three3Pics' },
      ],
    },
    author: fxAuthor(users.sample, 'individual'),
    replies: 0,
    retweets: 5,
    likes: 50,
    views: 500,
    created_at: 'Mon Apr 06 10:00:00 +0000 2026',
    created_timestamp: 1775469600,
    lang: 'en',
    media: {
      all: photos.map(([id, w, h]) => ({
        type: 'photo',
        url: `https://pbs.twimg.com/media/${id}.png?name=orig`,
        width: w,
        height: h,
      })),
    },
  });
}

// 8. Four photos.
{
  const text = 'Four photos in a 2×2 grid https://t.co/Four4Pics0';
  const idx = at(text, 'https://t.co/Four4Pics0');
  const palette: [[number, number, number], [number, number, number]][] = [
    [
      [255, 230, 150],
      [250, 150, 30],
    ],
    [
      [150, 230, 255],
      [30, 120, 250],
    ],
    [
      [230, 255, 150],
      [60, 170, 40],
    ],
    [
      [255, 150, 220],
      [170, 30, 120],
    ],
  ];
  syndication('1900000000000000008', {
    created_at: '2026-04-07T18:30:00.000Z',
    display_text_range: [0, idx[0] - 1],
    text,
    entities: {
      media: [
        {
          display_url: 'pic.x.com/Four4Pics0',
          expanded_url: 'https://x.com/i/status/photo/1',
          indices: idx,
          url: 'https://t.co/Four4Pics0',
        },
      ],
    },
    mediaDetails: palette.map((c, i) => photo(`PS4${'abcd'[i]}`, 1000, 1000, c, idx, 'Four4Pics0')),
    user: users.acme,
    favorite_count: 4444,
    conversation_count: 44,
  });
}

// 9. Animated GIF.
{
  const text = 'When the build passes on the first try https://t.co/GifGif0001';
  const idx = at(text, 'https://t.co/GifGif0001');
  image(
    'https://pbs.twimg.com/tweet_video_thumb/PSgif01.png?name=small',
    'PSgif01.png',
    480,
    270,
    [40, 40, 60],
    [200, 60, 120],
  );
  syndication('1900000000000000009', {
    created_at: '2026-04-08T07:00:00.000Z',
    display_text_range: [0, idx[0] - 1],
    text,
    entities: {
      media: [
        {
          display_url: 'pic.x.com/GifGif0001',
          expanded_url: 'https://x.com/i/status/photo/1',
          indices: idx,
          url: 'https://t.co/GifGif0001',
        },
      ],
    },
    mediaDetails: [
      {
        display_url: 'pic.x.com/GifGif0001',
        expanded_url: 'https://x.com/danadoe/status/1900000000000000009/photo/1',
        indices: idx,
        media_url_https: 'https://pbs.twimg.com/tweet_video_thumb/PSgif01.png',
        original_info: { width: 480, height: 270 },
        type: 'animated_gif',
        url: 'https://t.co/GifGif0001',
        video_info: {
          aspect_ratio: [16, 9],
          variants: [{ bitrate: 0, content_type: 'video/mp4', url: 'https://video.twimg.com/tweet_video/PSgif01.mp4' }],
        },
      },
    ],
    user: users.dana,
    favorite_count: 77,
  });
}

// 10. Poll (syndication card).
{
  const text = 'Which output format do you use most?';
  syndication('1900000000000000010', {
    created_at: '2026-04-09T12:00:00.000Z',
    display_text_range: [0, len(text)],
    text,
    card: {
      name: 'poll3choice_text_only',
      url: 'https://t.co/PollPoll01',
      binding_values: {
        choice1_label: { type: 'STRING', string_value: 'PNG' },
        choice1_count: { type: 'STRING', string_value: '1234' },
        choice2_label: { type: 'STRING', string_value: 'SVG' },
        choice2_count: { type: 'STRING', string_value: '567' },
        choice3_label: { type: 'STRING', string_value: 'Markdown' },
        choice3_count: { type: 'STRING', string_value: '890' },
        end_datetime_utc: { type: 'STRING', string_value: '2026-04-10T12:00:00Z' },
        counts_are_final: { type: 'BOOLEAN', boolean_value: true },
      },
    },
    user: users.sample,
    favorite_count: 120,
    conversation_count: 30,
  });
}

// 11. Quote of a post with a photo.
{
  const inner = 'The inner post, with its own photo https://t.co/InnerPic01';
  const innerIdx = at(inner, 'https://t.co/InnerPic01');
  const text = 'Quoting this because it matters 👇';
  syndication('1900000000000000011', {
    created_at: '2026-04-10T15:45:00.000Z',
    display_text_range: [0, len(text)],
    text,
    user: users.dana,
    favorite_count: 15,
    conversation_count: 2,
    quoted_tweet: {
      id_str: '1900000000000000012',
      lang: 'en',
      created_at: '2026-04-09T11:00:00.000Z',
      display_text_range: [0, innerIdx[0] - 1],
      text: inner,
      entities: {
        media: [
          {
            display_url: 'pic.x.com/InnerPic01',
            expanded_url: 'https://x.com/i/status/photo/1',
            indices: innerIdx,
            url: 'https://t.co/InnerPic01',
          },
        ],
      },
      mediaDetails: [
        photo(
          'PSq1',
          1600,
          900,
          [
            [200, 220, 255],
            [90, 60, 200],
          ],
          innerIdx,
          'InnerPic01',
        ),
      ],
      user: users.acme,
      favorite_count: 900,
      reply_count: 20,
      retweet_count: 40,
    },
  });
}

// 13. Long (note) post with paragraphs.
{
  const paragraphs = [
    'This is a long post, the kind X calls a note. It goes well past 280 characters so the full text only comes from FxTwitter.',
    'Paragraph two keeps going: a screenshot service has to show every line of it, wrap it cleanly and never cut it off with an ellipsis.',
    'Paragraph three mentions @danadoe and the tag #longform, and a link to https://t.co/LongLink01 to check entities deep in a long text.',
    'The last paragraph ends here. ✅',
  ];
  const raw = paragraphs.join('\n\n');
  const link = at(raw, 'https://t.co/LongLink01');
  fxtwitter('1900000000000000013', {
    url: 'https://x.com/postshot_samples/status/1900000000000000013',
    text: raw.replace('https://t.co/LongLink01', 'https://example.org/notes'),
    raw_text: {
      text: raw,
      facets: [
        { type: 'mention', indices: at(raw, '@danadoe'), original: 'danadoe' },
        { type: 'hashtag', indices: at(raw, '#longform'), original: 'longform' },
        {
          type: 'url',
          indices: link,
          original: 'https://t.co/LongLink01',
          replacement: 'https://example.org/notes',
          display: 'example.org/notes',
        },
      ],
    },
    author: fxAuthor(users.sample, 'individual'),
    replies: 8,
    retweets: 21,
    likes: 210,
    bookmarks: 13,
    quotes: 2,
    views: 12345,
    created_at: 'Sat Apr 11 09:00:00 +0000 2026',
    created_timestamp: 1775898000,
    lang: 'en',
    is_note_tweet: true,
  });
}

// 14. Reply: the leading mention is outside the display range.
{
  const text = '@cityofexample Thank you for fixing the streetlights on Main St so quickly!';
  syndication('1900000000000000014', {
    created_at: '2026-04-12T20:10:00.000Z',
    display_text_range: [15, len(text)],
    text,
    in_reply_to_screen_name: 'cityofexample',
    in_reply_to_status_id_str: '1900000000000000016',
    in_reply_to_user_id_str: users.city.id_str,
    entities: {
      user_mentions: [
        { id_str: users.city.id_str, name: users.city.name, screen_name: 'cityofexample', indices: [0, 14] },
      ],
    },
    user: users.dana,
    favorite_count: 3,
  });
}

// 15. Video with duration, organisation author (FxTwitter shape).
// biome-ignore lint/complexity/noUselessLoneBlockStatements: one block per sample, as the others
{
  image(
    'https://pbs.twimg.com/amplify_video_thumb/PSvid01/img/poster.png?name=small',
    'PSvid01.png',
    640,
    360,
    [20, 30, 60],
    [90, 140, 220],
  );
  fxtwitter('1900000000000000015', {
    url: 'https://x.com/acme/status/1900000000000000015',
    text: 'Our new product video is out. 90 seconds, no fluff.',
    author: fxAuthor(users.acme, 'business'),
    replies: 40,
    retweets: 120,
    likes: 1500,
    bookmarks: 88,
    quotes: 9,
    views: 250000,
    created_at: 'Sun Apr 12 16:00:00 +0000 2026',
    created_timestamp: 1776009600,
    lang: 'en',
    media: {
      all: [
        {
          type: 'video',
          url: 'https://video.twimg.com/amplify_video/PSvid01/vid/avc1/1280x720/best.mp4',
          thumbnail_url: 'https://pbs.twimg.com/amplify_video_thumb/PSvid01/img/poster.png',
          width: 1280,
          height: 720,
          duration: 90.5,
          formats: [
            { url: 'https://video.twimg.com/amplify_video/PSvid01/pl/list.m3u8', container: 'm3u8' },
            {
              url: 'https://video.twimg.com/amplify_video/PSvid01/vid/avc1/640x360/low.mp4',
              bitrate: 832000,
              container: 'mp4',
            },
            {
              url: 'https://video.twimg.com/amplify_video/PSvid01/vid/avc1/1280x720/best.mp4',
              bitrate: 2176000,
              container: 'mp4',
            },
          ],
        },
      ],
    },
  });
}

// 16. Link card, government author.
{
  const text = 'Road works schedule for May is now online: https://t.co/CardLink01';
  image(
    'https://pbs.twimg.com/card_img/PScard01/img?format=png&name=small',
    'PScard01.png',
    600,
    314,
    [230, 240, 230],
    [60, 120, 80],
  );
  syndication('1900000000000000016', {
    created_at: '2026-04-13T08:00:00.000Z',
    display_text_range: [0, len(text)],
    text,
    entities: {
      urls: [
        {
          url: 'https://t.co/CardLink01',
          expanded_url: 'https://example.gov/roadworks/may',
          display_url: 'example.gov/roadworks/may',
          indices: at(text, 'https://t.co/CardLink01'),
        },
      ],
    },
    card: {
      name: 'summary_large_image',
      url: 'https://t.co/CardLink01',
      binding_values: {
        title: { type: 'STRING', string_value: 'Road works in May' },
        description: { type: 'STRING', string_value: 'Which streets close when, and the detours to take.' },
        domain: { type: 'STRING', string_value: 'example.gov' },
        photo_image_full_size_large: {
          type: 'IMAGE',
          image_value: {
            url: 'https://pbs.twimg.com/card_img/PScard01/img?format=png&name=800x419',
            width: 800,
            height: 419,
          },
        },
      },
    },
    user: users.city,
    favorite_count: 56,
    conversation_count: 7,
  });
}

// 17. Text that Markdown and HTML would interpret.
{
  const text =
    '*not bold* _not italic_ [not](a link) `not code` # not a heading\n&gt; not a quote\n1. not a list\n&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; \\o/ a&amp;b';
  syndication('1900000000000000017', {
    created_at: '2026-04-14T10:00:00.000Z',
    display_text_range: [0, len(text)],
    text,
    user: { ...users.dana, name: 'Dana "<b>" Doe' },
    favorite_count: 1,
  });
}

// 18. One photo, plain text: the bench's "1-photo post".
{
  const text = 'Sunset over the harbour tonight https://t.co/OnePhoto01';
  const idx = at(text, 'https://t.co/OnePhoto01');
  syndication('1900000000000000018', {
    created_at: '2026-04-15T19:30:00.000Z',
    display_text_range: [0, idx[0] - 1],
    text,
    entities: {
      media: [
        {
          display_url: 'pic.x.com/OnePhoto01',
          expanded_url: 'https://x.com/i/status/photo/1',
          indices: idx,
          url: 'https://t.co/OnePhoto01',
        },
      ],
    },
    mediaDetails: [
      photo(
        'PS1a',
        1600,
        1067,
        [
          [255, 200, 120],
          [120, 40, 90],
        ],
        idx,
        'OnePhoto01',
        'A harbour at sunset',
      ),
    ],
    user: users.sample,
    favorite_count: 321,
    conversation_count: 9,
  });
}

fs.writeFileSync(path.join(root, 'media', 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`wrote ${Object.keys(manifest).length} images and the sample posts under ${root}`);

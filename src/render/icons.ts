// Icons drawn here as small SVGs (badges, X mark, counters, play button): vector in every format.
import type { Verification } from '../sources/post.ts';
import type { ImageBytes } from './tree.ts';

const cache = new Map<string, ImageBytes>();
const memo = (key: string, make: () => string): ImageBytes => {
  let v = cache.get(key);
  if (!v) cache.set(key, (v = { key: `icon:${key}`, mime: 'image/svg+xml', bytes: Buffer.from(make()) }));
  return v;
};

/** The scalloped rosette of the verification badge, 24 units wide. */
function rosettePath(): string {
  const points: string[] = [];
  for (let i = 0; i < 96; i++) {
    const a = (i / 96) * Math.PI * 2;
    const r = 10.6 + 1.1 * Math.cos(a * 8);
    points.push(`${(12 + r * Math.cos(a)).toFixed(2)},${(12 + r * Math.sin(a)).toFixed(2)}`);
  }
  return `M${points.join('L')}Z`;
}

const BADGE_COLORS: Record<Exclude<Verification, 'none'>, string> = {
  blue: '#1d9bf0',
  business: '#e2b719',
  government: '#829aab',
};

export function badgeIcon(kind: Exclude<Verification, 'none'>): ImageBytes {
  return memo(
    `badge:${kind}`,
    () =>
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="${rosettePath()}" fill="${BADGE_COLORS[kind]}"/>` +
      '<path d="M7.2 12.4l3.2 3.1 6.4-7" fill="none" stroke="#fff" stroke-width="2.3" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  );
}

export function xLogo(color: string): ImageBytes {
  return memo(
    `x:${color}`,
    () =>
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="${color}" d="M3 3h5.2l12.8 18h-5.2z"/>` +
      `<path fill="${color}" d="M18.6 3h2.4l-7.4 8.4-1.3-1.8zM10.6 13.6l1.3 1.8L5.4 21H3z"/></svg>`,
  );
}

/** The classic Twitter bird, in its own blue on every theme. */
export function birdLogo(): ImageBytes {
  return memo(
    'bird',
    () =>
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="#1d9bf0" d="M23.643 4.937c-.835.37-1.732.62-2.675.733.962-.576 1.7-1.49 2.048-2.578-.9.534-1.897.922-2.958 1.13-.85-.904-2.06-1.47-3.4-1.47-2.572 0-4.658 2.086-4.658 4.66 0 .364.042.718.12 1.06-3.873-.195-7.304-2.05-9.602-4.868-.4.69-.63 1.49-.63 2.342 0 1.616.823 3.043 2.072 3.878-.764-.025-1.482-.234-2.11-.583v.06c0 2.257 1.605 4.14 3.737 4.568-.392.106-.803.162-1.227.162-.3 0-.593-.028-.877-.082.593 1.85 2.313 3.198 4.352 3.234-1.595 1.25-3.604 1.995-5.786 1.995-.376 0-.747-.022-1.112-.065 2.062 1.323 4.51 2.093 7.14 2.093 8.57 0 13.255-7.098 13.255-13.254 0-.2-.005-.402-.014-.602.91-.658 1.7-1.477 2.323-2.41z"/></svg>',
  );
}

const STROKE = (color: string) =>
  `fill="none" stroke="${color}" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"`;

const COUNTER_PATHS: Record<string, string> = {
  replies:
    '<path d="M4 11.5a7.5 7 0 0 1 7.5-7h1A7.5 7 0 0 1 20 11.5 7.5 7 0 0 1 12.5 18.5H11l-5 3v-4.2A7 7 0 0 1 4 11.5z"/>',
  reposts: '<path d="M5 9V7a2 2 0 0 1 2-2h10l-3-3M17 5l-3 3M19 15v2a2 2 0 0 1-2 2H7l3 3M7 19l3-3"/>',
  likes:
    '<path d="M12 20s-7.5-4.6-8.6-9.4C2.6 7.2 4.7 4.5 7.7 4.5c1.9 0 3.3 1.1 4.3 2.6 1-1.5 2.4-2.6 4.3-2.6 3 0 5.1 2.7 4.3 6.1C19.5 15.4 12 20 12 20z"/>',
  views: '<path d="M5 20V12M10 20V5M15 20v-9M20 20v-5"/>',
  bookmarks: '<path d="M6.5 3.5h11v17l-5.5-4-5.5 4z"/>',
  quotes: '<path d="M5 6h14v9H9l-4 3.5z"/>',
};

export function counterIcon(kind: keyof typeof COUNTER_PATHS, color: string): ImageBytes {
  return memo(
    `counter:${kind}:${color}`,
    () =>
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><g ${STROKE(color)}>${COUNTER_PATHS[kind]}</g></svg>`,
  );
}

export function playButton(): ImageBytes {
  return memo(
    'play',
    () =>
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="29" fill="#1d9bf0" stroke="#fff" stroke-width="4"/>' +
      '<path d="M25 19.5v25l20-12.5z" fill="#fff"/></svg>',
  );
}

/**
 * Drawn where a media fetch failed: a neutral panel with a picture glyph, never a broken request.
 * Made at the box's own aspect ratio, so no renderer has to fit it (they disagree on SVG images).
 */
export function placeholderImage(background: string, glyph: string, width: number, height: number): ImageBytes {
  return memo(`ph:${background}:${glyph}:${width}x${height}`, () => {
    // The glyph is 36×30 units around (80, 45) in a 160×90 panel, scaled to the box's height.
    const k = height / 90;
    const dx = (width / k - 160) / 2;
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="${background}"/>` +
      `<g transform="scale(${k.toFixed(4)}) translate(${dx.toFixed(2)} 0)" fill="none" stroke="${glyph}" stroke-width="2.5" stroke-linejoin="round"><rect x="62" y="30" width="36" height="30" rx="3"/>` +
      '<path d="M64 56l10-11 8 8 5-5 9 8"/><circle cx="88" cy="38" r="3"/></g></svg>'
    );
  });
}

// The one definition of the screenshot options. Route validation, the CLI flags, the normalized
// object the renderer gets, the render-output cache key and the stored images' content types all
// derive from OPTIONS_SCHEMA: adding an option touches this file and the card.
//
// Threat model: every value arrives from a query string or a command line. Values are matched
// against closed sets, integer ranges or strict grammars (colours, gradients, offsets); nothing
// is passed on to CSS or a fetch unless it was rebuilt from its parsed parts.
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { checkPublicImageUrl } from '../sources/public-image-url.ts';
import { BOOLEAN_WORDS, parseBooleanWord } from '../util/boolean-word.ts';
import { parseBackground } from './background.ts';

export const FORMATS = ['svg', 'png', 'html', 'jpeg', 'webp'] as const;
export const ASPECT_RATIOS = ['auto', '1:1', '4:5', '5:4', '16:9', '9:16'] as const;
const MAX_OFFSET_MINUTES = 14 * 60;

const flag = (description: string) => Type.Boolean({ default: true, description });

/** Names, types, ranges, defaults and descriptions of every option; JSON Schema as it stands. */
export const OPTIONS_SCHEMA = Type.Object(
  {
    format: Type.Enum(FORMATS, { default: 'svg', description: 'Output format.' }),
    theme: Type.Enum(['light', 'dark', 'dim'], {
      default: 'light',
      description: "Colours: light, X's black dark theme, or the dim (dark blue) one.",
    }),
    logo: Type.Enum(['x', 'bluebird', 'none'], {
      default: 'x',
      description: 'The mark at the top right: the X logo, the classic bird, or none.',
    }),
    showFullText: flag('false cuts long posts (and long quoted posts) at the length X shows, with a "Show more" line.'),
    showTimestamp: flag('The date and time line.'),
    showViews: flag('The view count in the counters row.'),
    showStats: flag('The counters row (replies, reposts, likes, bookmarks, views).'),
    showMedia: flag("Photos, video posters, GIFs, link-card images and the quoted post's media."),
    mediaLayout: Type.Enum(['grid', 'vertical'], {
      default: 'grid',
      description: "grid: X's layout; vertical: every photo full width, stacked, at its own aspect ratio.",
    }),
    aspectRatio: Type.Enum(ASPECT_RATIOS, {
      default: 'auto',
      description: 'The canvas ratio; the card is centred on the container and scaled down if it does not fit.',
    }),
    timeZoneOffset: Type.String({
      default: 'UTC+0',
      pattern: '^UTC(?:[+-](?:1[0-4]|[0-9])(?::[0-5][0-9])?)?$',
      description:
        'The offset the date line is shown in: UTC, UTC±H or UTC±H:MM, at most ±14:00. A space in place of + (what an unencoded + in a query string becomes: UTC 8, UTC 5:30) is read as +.',
      'x-allowed': 'UTC, UTC±H or UTC±H:MM, at most ±14:00 (a space in place of + is read as +)',
    }),
    width: Type.Integer({ minimum: 300, maximum: 1000, default: 550, description: 'Card width in CSS pixels.' }),
    height: Type.Union([Type.Literal('auto'), Type.Integer({ minimum: 100, maximum: 5000 })], {
      default: 'auto',
      description: 'Canvas height in CSS pixels (the card is centred and never cut), or auto.',
    }),
    containerBackground: Type.Optional(
      Type.String({
        maxLength: 400,
        description:
          'A container around the card filled with #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), transparent or linear-gradient(<angle>deg, <colour> [<pct>%], ...) with 2-5 stops.',
      }),
    ),
    backgroundImage: Type.Optional(
      Type.String({
        maxLength: 2048,
        pattern: '^https://',
        description: 'https URL of a JPEG, PNG or WebP drawn over the container (cover).',
      }),
    ),
    borderRadius: Type.Integer({ minimum: 0, maximum: 64, default: 16, description: "The card's corner radius." }),
    containerPadding: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 200,
        description: 'Space between the container edge and the card; 16 when a container is drawn.',
      }),
    ),
    scale: Type.Integer({ minimum: 1, maximum: 3, default: 2, description: 'Device pixels per CSS pixel (rasters).' }),
    quality: Type.Integer({ minimum: 1, maximum: 100, default: 90, description: 'JPEG and WebP quality.' }),
  },
  { additionalProperties: false },
);

export type RenderOptionsFull = Type.Static<typeof OPTIONS_SCHEMA>;
export type RenderFormat = RenderOptionsFull['format'];
export type ThemeName = RenderOptionsFull['theme'];
export type OptionName = keyof RenderOptionsFull;
export const OPTION_NAMES = Object.keys(OPTIONS_SCHEMA.properties) as OptionName[];

export const CONTENT_TYPES: Readonly<Record<RenderFormat, string>> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  html: 'text/html; charset=utf-8',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

const checker = Compile(OPTIONS_SCHEMA);

/** A refused option value, with the text a user reads. */
export class OptionError extends Error {
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}

type PropertySchema = Record<string, unknown> & {
  type?: string;
  enum?: readonly string[];
  anyOf?: PropertySchema[];
  minimum?: number;
  maximum?: number;
  const?: string;
};

function describeAllowed(s: PropertySchema): string {
  if (s.enum) return `one of ${s.enum.join(', ')}`;
  if (s.type === 'boolean') return BOOLEAN_WORDS;
  if (s.type === 'integer') return `an integer from ${s.minimum} to ${s.maximum}`;
  if (s.anyOf) return s.anyOf.map((a) => (a.const !== undefined ? a.const : describeAllowed(a))).join(' or ');
  // A pattern's values in words: its description is a sentence for the documentation.
  return typeof s['x-allowed'] === 'string' ? s['x-allowed'] : 'a valid value';
}

function show(raw: string): string {
  return raw.length > 64 ? `${raw.slice(0, 64)}…` : raw;
}

/** One raw value to its normalized form by the property's schema; undefined when it cannot be. */
function coerce(name: OptionName, s: PropertySchema, raw: string): unknown {
  const v = raw.trim().toLowerCase();
  if (s.enum) return s.enum.includes(v) ? v : undefined;
  if (s.type === 'boolean') return parseBooleanWord(v);
  if (s.type === 'integer') return /^\d{1,6}$/.test(v) ? Number(v) : undefined;
  if (s.anyOf) {
    for (const alt of s.anyOf) {
      const out = alt.const !== undefined ? (v === alt.const ? v : undefined) : coerce(name, alt, raw);
      if (out !== undefined) return out;
    }
    return undefined;
  }
  if (name === 'timeZoneOffset') return normalizeOffset(v);
  if (name === 'containerBackground') {
    const bg = parseBackground(v);
    if (!bg.ok) throw new OptionError(name, `Parameter "${name}" ${bg.reason}, got "${show(raw)}".`);
    return bg.css;
  }
  if (name === 'backgroundImage') {
    const url = checkPublicImageUrl(raw.trim());
    if (!url.ok) throw new OptionError(name, `Parameter "${name}" ${url.reason}, got "${show(raw)}".`);
    return url.url.toString();
  }
  return raw.trim();
}

/**
 * `utc+05:30` → `UTC+5:30`, `utc` → `UTC+0`, `utc 8` → `UTC+8`; undefined when malformed or beyond
 * ±14:00. A space is a +: an unencoded + in a query string arrives as one, and TwitterShots' docs
 * write `UTC+8` unencoded.
 */
function normalizeOffset(v: string): string | undefined {
  const m = /^utc(?:([+ -])(\d{1,2})(?::(\d{2}))?)?$/.exec(v);
  if (!m) return undefined;
  const sign = m[1] === '-' ? '-' : '+';
  const hours = Number(m[2] ?? 0);
  const minutes = Number(m[3] ?? 0);
  if (minutes > 59 || hours * 60 + minutes > MAX_OFFSET_MINUTES) return undefined;
  if (hours === 0 && minutes === 0) return 'UTC+0';
  return `UTC${sign}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

/** Minutes east of UTC of a normalized offset. */
export function offsetMinutes(offset: string): number {
  const m = /^UTC([+-])(\d+)(?::(\d+))?$/.exec(offset);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

/** Every option filled in: defaults for those absent. */
export function defaultOptions(): RenderOptionsFull {
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(OPTIONS_SCHEMA.properties as unknown as Record<string, PropertySchema>))
    if (s.default !== undefined) out[name] = s.default;
  return out as RenderOptionsFull;
}

/**
 * Raw values by name (query strings, CLI flags) → the normalized options. Names outside the
 * schema are the caller's to refuse. Throws OptionError naming the option, the value and what
 * is allowed.
 */
export function parseOptions(raw: Readonly<Record<string, unknown>>): RenderOptionsFull {
  const out: Record<string, unknown> = defaultOptions();
  const props = OPTIONS_SCHEMA.properties as unknown as Record<OptionName, PropertySchema>;
  for (const name of OPTION_NAMES) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value !== 'string')
      throw new OptionError(name, `Parameter "${name}" must be given once, as ${describeAllowed(props[name])}.`);
    const coerced = coerce(name, props[name], value);
    if (coerced === undefined || !checker.Check({ ...out, [name]: coerced }))
      throw new OptionError(name, `Parameter "${name}" must be ${describeAllowed(props[name])}, got "${show(value)}".`);
    out[name] = coerced;
  }
  return out as RenderOptionsFull;
}

/** Partial options (CLI, tests, warm-up) with the defaults filled, validated like a request. */
export function completeOptions(partial: Partial<RenderOptionsFull>): RenderOptionsFull {
  const out = { ...defaultOptions(), ...partial };
  if (!checker.Check(out)) {
    const e = checker.Errors(out)[0];
    throw new OptionError(e?.instancePath ?? '', `Invalid render options: ${e?.instancePath} ${e?.message}`);
  }
  return out;
}

/**
 * A stable serialization of normalized options: schema order, defaults filled, so two requests
 * that mean the same share a key and different options never do.
 */
export function optionsKey(options: Partial<RenderOptionsFull>): string {
  const full = { ...defaultOptions(), ...options } as Record<string, unknown>;
  return JSON.stringify(OPTION_NAMES.map((n) => full[n] ?? null));
}

/** True when the options draw a container around the card. */
export function hasContainer(o: RenderOptionsFull): boolean {
  return (
    o.containerBackground !== undefined ||
    o.backgroundImage !== undefined ||
    o.containerPadding !== undefined ||
    o.aspectRatio !== 'auto' ||
    o.height !== 'auto'
  );
}

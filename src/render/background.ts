// containerBackground values: a colour or a linear gradient, parsed by a strict grammar and
// rebuilt from its parts. Threat model: the value ends up in CSS given to three engines, so no
// url(), var(), nested functions or anything else passes; every number is range-checked.

export type BackgroundParse = { ok: true; css: string } | { ok: false; reason: string };

const MAX_STOPS = 5;
// CSS numbers may leave out the leading zero (`rgba(0,0,0,.5)`, the usual way to write an alpha).
const NUMBER = /^-?(?:\d{1,4}(?:\.\d{1,3})?|\.\d{1,3})$/;

const ALLOWED =
  'must be #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), transparent or linear-gradient(<angle>deg, <colour> [<pct>%], ...) with 2-5 stops';

/** A colour as canonical `rgba(r,g,b,a)`, or null. Input is lower-cased. */
export function parseColor(v: string): string | null {
  const s = v.trim();
  if (s === 'transparent') return 'rgba(0,0,0,0)';
  let m = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(s);
  if (m) {
    const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
    const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
    const a = hex.length === 8 ? Number.parseInt(hex.slice(6, 8), 16) / 255 : 1;
    return `rgba(${r},${g},${b},${Number(a.toFixed(3))})`;
  }
  m = /^rgba?\(([^()]*)\)$/.exec(s);
  if (!m) return null;
  const parts = m[1].split(',').map((p) => p.trim());
  if (parts.length !== 3 && parts.length !== 4) return null;
  if (!parts.every((p) => NUMBER.test(p))) return null;
  const [r, g, b, a = 1] = parts.map(Number);
  if (![r, g, b].every((c) => Number.isInteger(c) && c >= 0 && c <= 255) || a < 0 || a > 1) return null;
  return `rgba(${r},${g},${b},${a})`;
}

/** Splits on commas outside parentheses. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out;
}

function parseGradient(v: string): BackgroundParse {
  const m = /^linear-gradient\((.*)\)$/.exec(v);
  if (!m) return { ok: false, reason: ALLOWED };
  const [angleText, ...stopTexts] = splitTopLevel(m[1]);
  const angle = /^(-?\d{1,3}(?:\.\d{1,2})?)deg$/.exec(angleText);
  if (!angle || Math.abs(Number(angle[1])) > 360)
    return { ok: false, reason: 'must start its gradient with an angle from -360deg to 360deg' };
  if (stopTexts.length < 2 || stopTexts.length > MAX_STOPS)
    return { ok: false, reason: `must have 2 to ${MAX_STOPS} gradient stops (got ${stopTexts.length})` };
  const stops: string[] = [];
  for (const text of stopTexts) {
    const sm = /^(.*?)(?:\s+(\d{1,3}(?:\.\d{1,2})?)%)?$/.exec(text);
    const color = sm && parseColor(sm[1]);
    if (!sm || !color) return { ok: false, reason: `has a gradient stop that is not a colour [percentage]: "${text}"` };
    if (sm[2] !== undefined && Number(sm[2]) > 100) return { ok: false, reason: 'has a gradient stop beyond 100%' };
    stops.push(sm[2] !== undefined ? `${color} ${Number(sm[2])}%` : color);
  }
  return { ok: true, css: `linear-gradient(${Number(angle[1])}deg, ${stops.join(', ')})` };
}

/** A containerBackground value (lower-cased) → canonical CSS, or the reason it is refused. */
export function parseBackground(v: string): BackgroundParse {
  const s = v.trim().replace(/\s+/g, ' ');
  if (s.startsWith('linear-gradient(')) return parseGradient(s);
  const color = parseColor(s);
  return color ? { ok: true, css: color } : { ok: false, reason: ALLOWED };
}

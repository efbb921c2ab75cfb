import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBackground } from '../../src/render/background.ts';
import { planCanvas } from '../../src/render/canvas.ts';
import { cutText, VISIBLE_LENGTH } from '../../src/render/cut-text.ts';
import {
  defaultOptions,
  OPTION_NAMES,
  OPTIONS_SCHEMA,
  OptionError,
  optionsKey,
  parseOptions,
} from '../../src/render/options.ts';

test('the schema carries a description for every option and is plain JSON Schema', () => {
  const json = JSON.parse(JSON.stringify(OPTIONS_SCHEMA));
  assert.equal(json.type, 'object');
  assert.equal(json.additionalProperties, false);
  for (const name of OPTION_NAMES) assert.ok(json.properties[name].description, name);
  assert.deepEqual(json.properties.width, {
    type: 'integer',
    minimum: 300,
    maximum: 1000,
    default: 550,
    description: 'Card width in CSS pixels.',
  });
});

test('values are case-insensitive; booleans take true/false/1/0/yes/no; defaults fill the rest', () => {
  const o = parseOptions({
    format: 'PNG',
    theme: 'Dim',
    showStats: 'No',
    showViews: '0',
    showMedia: 'YES',
    width: '400',
  });
  assert.equal(o.format, 'png');
  assert.equal(o.theme, 'dim');
  assert.equal(o.showStats, false);
  assert.equal(o.showViews, false);
  assert.equal(o.showMedia, true);
  assert.equal(o.width, 400);
  assert.equal(o.scale, 2);
  assert.equal(o.timeZoneOffset, 'UTC+0');
  assert.equal(o.containerBackground, undefined);
  assert.deepEqual(parseOptions({}), defaultOptions());
});

test('one cache key per meaning: spellings collapse, any difference separates', () => {
  const key = (q: Record<string, string>) => optionsKey(parseOptions(q));
  assert.equal(key({ format: 'PNG', showStats: '1' }), key({ format: 'png', showStats: 'true' }));
  assert.equal(key({}), key({ format: 'svg', theme: 'light', width: '550', timeZoneOffset: 'utc' }));
  assert.equal(key({ timeZoneOffset: 'UTC+05:00' }), key({ timeZoneOffset: 'utc+5' }));
  assert.equal(
    key({ containerBackground: '#F00' }),
    key({ containerBackground: 'rgb(255, 0, 0)' }),
    'colours are canonical',
  );
  const variants: Array<Record<string, string>> = [
    {},
    { width: '551' },
    { showViews: 'false' },
    { aspectRatio: '1:1' },
    { containerPadding: '16' },
    { containerBackground: 'transparent' },
    { scale: '3' },
    { format: 'webp' },
    { quality: '80' },
    { timeZoneOffset: 'UTC-1' },
  ];
  assert.equal(new Set(variants.map(key)).size, variants.length);
});

test('refusals name the option, the value and what is allowed', () => {
  const refused = (q: Record<string, unknown>) => {
    try {
      parseOptions(q);
    } catch (err) {
      assert.ok(err instanceof OptionError);
      return err.message;
    }
    assert.fail(`accepted ${JSON.stringify(q)}`);
  };
  assert.equal(refused({ width: '299' }), 'Parameter "width" must be an integer from 300 to 1000, got "299".');
  assert.equal(refused({ scale: '1.5' }), 'Parameter "scale" must be an integer from 1 to 3, got "1.5".');
  assert.match(refused({ height: 'tall' }), /"height" must be auto or an integer from 100 to 5000, got "tall"/);
  assert.match(refused({ width: ['400', '500'] }), /given once/);
  assert.equal(
    refused({ timeZoneOffset: 'UTC+14:01' }),
    'Parameter "timeZoneOffset" must be UTC, UTC±H or UTC±H:MM, at most ±14:00 (a space in place of + is read as +), got "UTC+14:01".',
  );
  assert.match(refused({ timeZoneOffset: 'GMT+1' }), /timeZoneOffset/);
  assert.match(refused({ backgroundImage: 'ftp://example.com/a.png' }), /backgroundImage/);
});

test('containerBackground grammar: colours and 2-5 stop gradients, nothing else', () => {
  const ok = (v: string) => {
    const r = parseBackground(v);
    assert.ok(r.ok, `${v}: ${!r.ok && r.reason}`);
    return r.css;
  };
  assert.equal(ok('#abc'), 'rgba(170,187,204,1)');
  assert.equal(ok('#00000080'), 'rgba(0,0,0,0.502)');
  assert.equal(ok('rgba(1, 2, 3, 0.5)'), 'rgba(1,2,3,0.5)');
  assert.equal(ok('transparent'), 'rgba(0,0,0,0)');
  assert.equal(
    ok('linear-gradient(45deg, #f00 0%, rgba(0,0,255,0.5) 60%, #0f0)'),
    'linear-gradient(45deg, rgba(255,0,0,1) 0%, rgba(0,0,255,0.5) 60%, rgba(0,255,0,1))',
  );
  for (const bad of [
    'red',
    'url(https://example.com/a.png)',
    'linear-gradient(90deg, url(a), #fff)',
    'linear-gradient(90deg, #fff)',
    `linear-gradient(90deg, ${Array(6).fill('#fff').join(', ')})`,
    'linear-gradient(to right, #fff, #000)',
    'linear-gradient(90deg, #fff 120%, #000)',
    'radial-gradient(#fff, #000)',
    'rgb(256, 0, 0)',
    'rgba(0,0,0,2)',
    '#ff00',
    'var(--x)',
    'linear-gradient(90deg, #fff, #000); background: url(x)',
  ])
    assert.equal(parseBackground(bad).ok, false, bad);
});

test('canvas geometry: ratio from the width, fixed heights, scaled down and centred, never cut', () => {
  const base = { ...defaultOptions() };
  assert.equal(planCanvas(base, 550, 400), null, 'no container by default');
  const p45 = planCanvas({ ...base, aspectRatio: '4:5' }, 550, 400)!;
  assert.deepEqual([p45.width, p45.height, p45.scale, p45.x, p45.y], [582, 728, 1, 16, 164]);
  const tall = planCanvas({ ...base, aspectRatio: '16:9' }, 550, 900)!;
  assert.equal(tall.height, 327);
  assert.ok(tall.scale < 1 && 900 * tall.scale <= tall.height - 2 * 16 + 1e-9);
  assert.equal(tall.x, (582 - 550 * tall.scale) / 2);
  const fixed = planCanvas({ ...base, height: 100, containerPadding: 200 }, 550, 600)!;
  assert.ok(fixed.y >= 0 && fixed.y + 600 * fixed.scale <= 100, 'padding yields to a small canvas');
});

test('showFullText=false cuts at X visible length, on a word, never inside an entity', () => {
  const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
  const cut = cutText({ text: words, entities: [] })!;
  assert.ok(Array.from(cut.text).length <= VISIBLE_LENGTH + 1);
  assert.ok(cut.text.endsWith('…'));
  assert.match(cut.text, /word\d+…$/);
  assert.equal(cutText({ text: 'short', entities: [] }), null);
  const text = `${'a '.repeat(135)}https://example.org/a-long-link-here more`;
  const start = 270;
  const entity = { type: 'url' as const, start, end: start + 33, url: 'https://example.org', display: 'x' };
  const withLink = cutText({ text, entities: [entity] })!;
  assert.equal(withLink.entities.length, 0);
  assert.ok(!withLink.text.includes('https'));
});

test('showFullText=false weighs the text as X does: 140 ideographs, emoji count 2, a link 23', () => {
  assert.equal(cutText({ text: '日本語'.repeat(100), entities: [] })!.text, `${'日本語'.repeat(46)}日本…`);
  assert.equal(cutText({ text: '日本語'.repeat(46), entities: [] }), null, '138 ideographs fit');
  assert.equal(
    cutText({ text: `${'x'.repeat(270)}${'🙂'.repeat(10)}`, entities: [] })!.text,
    `${'x'.repeat(270)}${'🙂'.repeat(5)}…`,
  );
  // A long link weighs as its 23-character t.co address: this post fits whole on X.
  const url = `https://example.org/${'p'.repeat(80)}`;
  const text = `${'a '.repeat(120)}${url}`;
  const entity = { type: 'url' as const, start: 240, end: 240 + url.length, url, display: url };
  assert.equal(cutText({ text, entities: [entity] }), null);
});

test('showFullText=false never splits an emoji sequence; a hashtag or a grapheme of hundreds is cut inside', () => {
  // A family emoji (seven code points, weighing 2) across the cut: it goes whole, before the ellipsis.
  const family = '👨\u200d👩\u200d👧\u200d👦';
  const cut = cutText({ text: `${'日'.repeat(139)}a${family}${'本'.repeat(20)}`, entities: [] })!;
  assert.equal(cut.text, `${'日'.repeat(139)}a…`);
  // An entity that starts far before the cut: cutting before it would leave nothing but "…".
  const text = `#${'وسم'.repeat(120)} end`;
  const tag = { type: 'hashtag' as const, start: 0, end: 361, tag: 'وسم'.repeat(120) };
  const long = cutText({ text, entities: [tag] })!;
  assert.equal(Array.from(long.text).length, VISIBLE_LENGTH + 1);
  assert.deepEqual(long.entities, []);
  // A grapheme of hundreds of code points across the cut (marks joined by ZWJ, old Hangul jamo) is
  // cut inside, for the same reason. Marks weigh nothing and a jamo 2, as X weighs them.
  for (const [text, shown] of [
    [`Z${'\u0301\u200d'.repeat(300)} tail`, 560],
    ['\u1100'.repeat(400), 140],
  ] as const) {
    assert.equal(Array.from(cutText({ text, entities: [] })!.text).length, shown + 1);
  }
});

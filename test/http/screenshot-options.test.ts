import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { assertProblem, build } from '../helper.ts';

// Sample posts (samples/): 4 photos; a long note with every counter; a post with two photos.
const PHOTOS = '1900000000000000008';
const LONG = '1900000000000000013';
const TWO = '1900000000000000006';
const NO_RATE = { POSTSHOT_RATE_LIMITS: 'free=100000,pro=100000,pro_plus=100000,business=100000' };

async function client(t: Parameters<typeof build>[0]) {
  const h = await build(t, { env: NO_RATE });
  const { apiKey, accountId } = await h.account('pro');
  const get = (id: string, q = '') =>
    h.app.inject({ url: `/api/v1/screenshot/${id}${q ? `?${q}` : ''}`, headers: { 'x-api-key': apiKey } });
  const png = async (id: string, q: string) => {
    const r = await get(id, `format=png&${q.includes('scale=') ? '' : 'scale=1&'}${q}`);
    assert.equal(r.statusCode, 200, `${q}: ${r.body.slice(0, 300)}`);
    return PNG.sync.read(r.rawPayload);
  };
  return { h, get, png, accountId };
}

const pixel = (img: PNG, x: number, y: number) =>
  Array.from(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4));

test("TwitterShots' agent skill and n8n node requests answer 200", async (t) => {
  const { get } = await client(t);
  const skill = await get(
    PHOTOS,
    'format=png&theme=light&aspectRatio=auto&returnType=buffer&showStats=true&showViews=true&showTimestamp=true&showMedia=true&showFullText=true&mediaLayout=grid&timeZoneOffset=UTC%2B0&logo=x',
  );
  assert.equal(skill.statusCode, 200, skill.body.slice(0, 300));
  assert.equal(skill.headers['content-type'], 'image/png');
  assert.equal(PNG.sync.read(skill.rawPayload).width, 1100);
  const n8n = await get(PHOTOS, 'format=svg&theme=light&logo=x&returnType=buffer');
  assert.equal(n8n.statusCode, 200);
  assert.match(n8n.body, /^<svg /);
});

test('width, scale, aspectRatio, height and containerPadding set the PNG size', async (t) => {
  const { png } = await client(t);
  assert.equal((await png(PHOTOS, '')).width, 550);
  assert.equal((await png(PHOTOS, 'width=400')).width, 400);
  const w3 = await png(PHOTOS, 'width=400&scale=3');
  assert.equal(w3.width, 1200);
  // Narrower card, same photos grid ratio: the card is shorter.
  assert.ok((await png(PHOTOS, 'width=300')).height < (await png(PHOTOS, 'width=1000')).height);
  const ratio = await png(PHOTOS, 'aspectRatio=4:5');
  assert.deepEqual([ratio.width, ratio.height], [582, 728]);
  const wide = await png(LONG, 'aspectRatio=16:9');
  assert.deepEqual([wide.width, wide.height], [582, 327]);
  const tall = await png(LONG, 'aspectRatio=9:16');
  assert.deepEqual([tall.width, tall.height], [582, 1035]);
  const fixed = await png(PHOTOS, 'height=1200');
  assert.deepEqual([fixed.width, fixed.height], [582, 1200]);
  const padded = await png(PHOTOS, 'containerPadding=40');
  const bare = await png(PHOTOS, '');
  assert.deepEqual([padded.width, padded.height], [630, bare.height + 80]);
});

test('container backgrounds: colours and gradients at the corners; transparent stays transparent', async (t) => {
  const { png } = await client(t);
  const red = await png(PHOTOS, `containerBackground=${encodeURIComponent('#ff0000')}`);
  assert.deepEqual(pixel(red, 1, 1), [255, 0, 0, 255]);
  assert.deepEqual(pixel(red, red.width - 2, red.height - 2), [255, 0, 0, 255]);
  const grad = await png(
    PHOTOS,
    `aspectRatio=4:5&containerBackground=${encodeURIComponent('linear-gradient(90deg, #FF0000, #0000ff)')}`,
  );
  const [lr, , lb] = pixel(grad, 1, grad.height / 2);
  const [rr, , rb] = pixel(grad, grad.width - 2, grad.height / 2);
  assert.ok(lr > 240 && lb < 15, `left edge is red: ${lr},${lb}`);
  assert.ok(rb > 240 && rr < 15, `right edge is blue: ${rr},${rb}`);
  const clear = await png(PHOTOS, 'containerBackground=transparent&containerPadding=20');
  assert.equal(pixel(clear, 5, 5)[3], 0);
  const rgba = await png(PHOTOS, `containerBackground=${encodeURIComponent('rgba(0, 128, 0, 1)')}`);
  assert.deepEqual(pixel(rgba, 2, 2), [0, 128, 0, 255]);
  // An alpha without its leading zero, as CSS allows and most people write it.
  const half = await png(PHOTOS, `containerBackground=${encodeURIComponent('rgba(0,128,0,.5)')}`);
  const [, hg, , ha] = pixel(half, 2, 2);
  assert.ok(hg > 120 && Math.abs(ha - 128) <= 1, `half-transparent green: ${pixel(half, 2, 2)}`);
  // borderRadius: the card's own corner is opaque only when it is square.
  assert.equal(pixel(await png(PHOTOS, 'borderRadius=0'), 0, 0)[3], 255);
  assert.equal(pixel(await png(PHOTOS, 'borderRadius=64'), 4, 4)[3], 0);
});

test('showFullText=false shows as much of a Chinese note as X does: 140 ideographs, not 280', async (t) => {
  const { get } = await client(t);
  // A recorded 360-character note (../shared/fixtures): X weighs an ideograph 2, so it shows about
  // 140 of them; its second list item (Louvain, the 174th character) is past the cut.
  const html = (await get('2056590419366932809', 'format=html&showFullText=false')).body;
  assert.ok(html.includes('Show more') && html.includes('个人知识库的天花板来了'));
  assert.ok(!html.includes('Louvain'), "cut at X's visible length");
});

test('themes: dark is black, dim is dark blue; logo variants', async (t) => {
  const { png } = await client(t);
  assert.deepEqual(pixel(await png(PHOTOS, 'theme=dark'), 200, 10), [0, 0, 0, 255]);
  assert.deepEqual(pixel(await png(PHOTOS, 'theme=DIM'), 200, 10), [0x15, 0x20, 0x2b, 255]);
  assert.deepEqual(pixel(await png(PHOTOS, 'theme=light'), 200, 10), [255, 255, 255, 255]);
  // The mark sits in a 24 px box at the header's right end: count the non-white pixels there.
  const inked = (img: PNG) => {
    let n = 0;
    for (let y = 10; y < 70; y++)
      for (let x = img.width - 45; x < img.width - 10; x++) if (pixel(img, x, y)[0] < 200) n++;
    return n;
  };
  assert.ok(inked(await png(PHOTOS, 'logo=x')) > 50);
  assert.equal(inked(await png(PHOTOS, 'logo=none')), 0);
  const bird = await png(PHOTOS, 'logo=bluebird');
  let blue = 0;
  for (let y = 10; y < 70; y++)
    for (let x = bird.width - 45; x < bird.width - 10; x++) {
      const [r, g, b] = pixel(bird, x, y);
      if (b > 200 && r < 80 && g > 120) blue++;
    }
  assert.ok(blue > 50, `bird is blue (${blue} px)`);
});

test('hidden parts are absent: HTML loses the element, the PNG gets shorter', async (t) => {
  const { get, png } = await client(t);
  const html = async (q: string) => (await get(LONG, `format=html&${q}`)).body;
  const full = await html('');
  for (const text of ['12.3K', '210', 'UTC · Apr 11, 2026', 'The last paragraph ends here.'])
    assert.ok(full.includes(text), text);
  const noViews = await html('showViews=false');
  assert.ok(!noViews.includes('12.3K') && noViews.includes('210'));
  const noStats = await html('showStats=0');
  assert.ok(!noStats.includes('12.3K') && !noStats.includes('>210<'));
  assert.ok(!(await html('showTimestamp=no')).includes('Apr 11, 2026'));
  const cut = await html('showFullText=false');
  assert.ok(cut.includes('Show more') && !cut.includes('The last paragraph'));
  const base = (await png(LONG, '')).height;
  for (const q of ['showStats=false', 'showTimestamp=false', 'showFullText=false'])
    assert.ok((await png(LONG, q)).height < base, q);
  const photos = (await png(PHOTOS, '')).height;
  assert.ok((await png(PHOTOS, 'showMedia=false')).height < photos - 200);
  const imgs = (s: string) => s.match(/<img src="data:image\/(jpeg|png)/g)?.length ?? 0;
  const withMedia = (await get(PHOTOS, 'format=html')).body;
  const without = (await get(PHOTOS, 'format=html&showMedia=false')).body;
  assert.equal(imgs(withMedia) - imgs(without), 4, 'the four photos are gone');
  // vertical: every photo full width, stacked: far taller than the 2×2 grid.
  assert.ok((await png(TWO, 'mediaLayout=vertical')).height > (await png(TWO, '')).height + 300);
});

test('timeZoneOffset moves and labels the time line', async (t) => {
  const { get } = await client(t);
  const line = async (q: string) => /(\d+:\d\d [AP]M UTC[^<]*)</.exec((await get(LONG, `format=html&${q}`)).body)?.[1];
  assert.equal(await line(''), '9:00 AM UTC · Apr 11, 2026');
  assert.equal(await line('timeZoneOffset=UTC%2B5:30'), '2:30 PM UTC+5:30 · Apr 11, 2026');
  assert.equal(await line('timeZoneOffset=utc-10'), '11:00 PM UTC-10 · Apr 10, 2026');
  assert.equal(await line('timeZoneOffset=UTC'), '9:00 AM UTC · Apr 11, 2026');
  // An unencoded + (as TwitterShots' docs write it) arrives as a space: read it as the sign.
  assert.equal(await line('timeZoneOffset=UTC+8'), '5:00 PM UTC+8 · Apr 11, 2026');
  assert.equal(await line('timeZoneOffset=UTC+5:30'), '2:30 PM UTC+5:30 · Apr 11, 2026');
  assert.equal(await line('timeZoneOffset=UTC%205:30'), '2:30 PM UTC+5:30 · Apr 11, 2026');
  const twoSpaces = await get(LONG, 'timeZoneOffset=UTC++8');
  assert.equal(twoSpaces.statusCode, 400);
  assert.match(twoSpaces.json().detail, /a space in place of \+ is read as \+/);
});

test('JPEG and WebP: magic bytes, dimensions, quality', async (t) => {
  const { get } = await client(t);
  const jpeg = await get(PHOTOS, 'format=JPEG&width=400');
  assert.equal(jpeg.headers['content-type'], 'image/jpeg');
  assert.deepEqual([...jpeg.rawPayload.subarray(0, 3)], [0xff, 0xd8, 0xff]);
  const jm = await sharp(jpeg.rawPayload).metadata();
  assert.equal(jm.width, 800);
  const webp = await get(PHOTOS, 'format=webp&scale=1&aspectRatio=1:1&containerBackground=%23123456');
  assert.equal(webp.headers['content-type'], 'image/webp');
  assert.equal(webp.rawPayload.subarray(0, 4).toString(), 'RIFF');
  assert.equal(webp.rawPayload.subarray(8, 12).toString(), 'WEBP');
  const wm = await sharp(webp.rawPayload).metadata();
  assert.deepEqual([wm.width, wm.height], [582, 582]);
  const low = await get(PHOTOS, 'format=jpeg&quality=10');
  assert.ok(low.rawPayload.length < jpeg.rawPayload.length);
  assert.equal(webp.headers['content-security-policy'], undefined, 'images need no document CSP');
});

test('render cache: equivalent spellings share one entry, different options never do', async (t) => {
  const { h, get } = await client(t);
  const rendered = () => h.c.renderer.stats.rendered;
  const a = await get(PHOTOS, 'format=PNG&showStats=1&theme=Light&timeZoneOffset=utc%2B00:00');
  const before = rendered();
  const b = await get(PHOTOS, 'format=png&showStats=true&timeZoneOffset=UTC');
  const c = await get(PHOTOS, 'showStats=yes&FORMAT=png'.replace('FORMAT', 'format'));
  assert.equal(rendered(), before, 'served from the cache');
  assert.ok(a.rawPayload.equals(b.rawPayload) && b.rawPayload.equals(c.rawPayload));
  const d = await get(PHOTOS, 'format=png&showStats=false');
  const e = await get(PHOTOS, 'format=png&width=551');
  assert.equal(rendered(), before + 2);
  assert.ok(!d.rawPayload.equals(a.rawPayload) && !e.rawPayload.equals(a.rawPayload));
});

type Get = Awaited<ReturnType<typeof client>>['get'];

async function assertRefused(get: Get, q: string, detail: RegExp) {
  const r = await get(PHOTOS, q);
  assert.equal(r.statusCode, 400, q);
  assertProblem(r, 400, 'invalid_parameter');
  const body = r.json();
  assert.match(body.detail, detail, q);
  assert.equal(body.message, body.detail);
  assert.equal(r.headers['x-quota-remaining'], '300', `${q} cost nothing`);
}

test('bad values are 400 invalid_parameter naming parameter, value and what is allowed; no charge', async (t) => {
  const { h, get, accountId } = await client(t);
  const nine = `linear-gradient(90deg, ${Array(9).fill('#fff').join(', ')})`;
  const cases: Array<[string, RegExp]> = [
    ['width=299', /"width" must be an integer from 300 to 1000, got "299"/],
    ['width=1001', /"width" must be an integer from 300 to 1000, got "1001"/],
    ['width=abc', /"width".*got "abc"/],
    ['aspectRatio=3:2', /"aspectRatio" must be one of auto, 1:1, 4:5, 5:4, 16:9, 9:16, got "3:2"/],
    [`containerBackground=${encodeURIComponent(nine)}`, /"containerBackground" must have 2 to 5 gradient stops/],
    [
      `containerBackground=${encodeURIComponent('url(https://example.com/a.png)')}`,
      /"containerBackground" must be #rgb/,
    ],
    [
      `containerBackground=${encodeURIComponent('linear-gradient(90deg, url(x), #fff)')}`,
      /"containerBackground" has a gradient stop that is not a colour/,
    ],
    ['containerBackground=%23ggg', /containerBackground/],
    ['showStats=maybe', /"showStats" must be true, false, 1, 0, yes or no, got "maybe"/],
    ['height=99', /"height" must be auto or an integer from 100 to 5000/],
    ['scale=4', /"scale"/],
    ['quality=0', /"quality"/],
    ['borderRadius=65', /"borderRadius"/],
    ['containerPadding=201', /"containerPadding"/],
    ['timeZoneOffset=UTC%2B15', /"timeZoneOffset".*got "UTC\+15"/],
    ['timeZoneOffset=UTC%2B14:30', /"timeZoneOffset"/],
    ['logo=twitter', /"logo" must be one of x, bluebird, none/],
    ['mediaLayout=masonry', /"mediaLayout"/],
    ['width=400&width=500', /"width" must be given once/],
    ['backgroundImage=http%3A%2F%2Fpbs.twimg.com%2Fmedia%2FPS2a.png', /"backgroundImage"/],
    ['backgroundImage=https%3A%2F%2F127.0.0.1%2Fa.png', /"backgroundImage" must point at a public host/],
    ['backgroundImage=https%3A%2F%2F10.1.2.3%2Fa.png', /"backgroundImage" must point at a public host/],
    ['backgroundImage=https%3A%2F%2F%5B%3A%3A1%5D%2Fa.png', /"backgroundImage" must point at a public host/],
    ['backgroundImage=https%3A%2F%2Flocalhost%2Fa.png', /"backgroundImage" must point at a public host/],
    ['backgroundImage=https%3A%2F%2F169.254.169.254%2Flatest', /"backgroundImage" must point at a public host/],
    ['bogus=1', /Unknown query parameter "bogus"/],
  ];
  for (const [q, detail] of cases) await assertRefused(get, q, detail);
  // Passes the URL rules, then the fetch fails: an error status, a non-image, a reset, a
  // redirect to something that is no URL.
  h.upstream.setFault('missing', { status: 404 }, 'media');
  h.upstream.setFault('page', { contentType: 'text/html' }, 'media');
  h.upstream.setFault('reset', { reset: true }, 'media');
  h.upstream.setFault('nowhere', { redirect: 'http://[' }, 'media');
  for (const [name, detail] of [
    ['missing', /"backgroundImage" could not be fetched \(HTTP 404\)/],
    ['page', /"backgroundImage" is not a JPEG, PNG or WebP image/],
    ['reset', /"backgroundImage" could not be fetched/],
    ['nowhere', /"backgroundImage" redirects to an address that is not a URL/],
  ] as const)
    await assertRefused(get, `backgroundImage=${encodeURIComponent(`https://example.com/${name}.png`)}`, detail);
  // A host answering each redirect just inside the timeout (1 s here) is timed as one fetch:
  // refused at the timeout, not after four of them.
  for (let hop = 0; hop < 4; hop++)
    h.upstream.setFault(`hop${hop}`, { delayMs: 700, redirect: `https://example.com/hop${hop + 1}.png` }, 'media');
  const started = Date.now();
  await assertRefused(get, `backgroundImage=${encodeURIComponent('https://example.com/hop0.png')}`, /timed out/);
  assert.ok(Date.now() - started < 2_000, `refused after ${Date.now() - started} ms`);
  // Refused before any credit was reserved: not even a refunded reservation in the ledger.
  assert.equal((await h.c.accounts.ledger(accountId)).length, 0);
});

test('backgroundImage from a public host is drawn under the card (cover)', async (t) => {
  const { png } = await client(t);
  const url = encodeURIComponent('https://pbs.twimg.com/media/PS2a.png?name=small');
  const img = await png(PHOTOS, `backgroundImage=${url}&aspectRatio=1:1`);
  assert.deepEqual([img.width, img.height], [582, 582]);
  // PS2a is an orange gradient: the canvas corner is warm, not the transparent default.
  const [r, g, b, a] = pixel(img, 2, 2);
  assert.equal(a, 255);
  assert.ok(r > 200 && b < 180 && r > g, `orange corner: ${r},${g},${b}`);
  // ...and the card is drawn over it: white at the canvas centre, left of the photos' gap.
  const [cr, cg, cb] = pixel(img, 30, 291);
  assert.ok(cr > 245 && cg > 245 && cb > 245, `card over the image: ${cr},${cg},${cb}`);
});

// sharp decodes far more than the three formats allowed; an SVG of a few kilobytes blurred over a
// large canvas kept a decoder thread busy for minutes. The bytes are checked, not the header.
test('backgroundImage in another format under an image/png type is refused, free, and not decoded', async (t) => {
  const bodies: Record<string, Buffer> = {
    '/blur.png': Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"><filter id="f">' +
        '<feGaussianBlur stdDeviation="20"/></filter><rect width="800" height="800" fill="#f80" filter="url(#f)"/></svg>',
    ),
    '/anim.png': await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f80' } })
      .gif()
      .toBuffer(),
    // Bytes of no image format at all: refused as that, not as "too large to decode".
    '/text.png': Buffer.from('Service temporarily unavailable, try again later.'),
    // A real PNG over the 40-megapixel cap: refused naming the cap.
    '/huge.png': await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#f80' } })
      .png({ compressionLevel: 9 })
      .toBuffer(),
  };
  const said: Record<string, RegExp> = { '/huge.png': /"backgroundImage" is over 40 megapixels/ };
  const media = http.createServer((req, res) => {
    const body = bodies[new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/example\.com/, '')];
    if (body) res.writeHead(200, { 'content-type': 'image/png' }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => media.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => media.close(() => r())));
  const h = await build(t, {
    env: { ...NO_RATE, POSTSHOT_MEDIA_URL: `http://127.0.0.1:${(media.address() as AddressInfo).port}` },
  });
  const { apiKey, accountId } = await h.account('pro');
  for (const name of Object.keys(bodies)) {
    const res = await h.app.inject({
      url: `/api/v1/screenshot/${PHOTOS}?format=png&backgroundImage=${encodeURIComponent(`https://example.com${name}`)}`,
      headers: { 'x-api-key': apiKey },
    });
    assertProblem(res, 400, 'invalid_parameter');
    assert.match(res.json().detail, said[name] ?? /"backgroundImage" is not a JPEG, PNG or WebP image/, name);
  }
  assert.equal((await h.c.accounts.ledger(accountId)).length, 0);
});

test('returnType=url stores WebP and JPEG under their own names and types', async (t) => {
  const { get, h } = await client(t);
  for (const [format, type] of [
    ['webp', 'image/webp'],
    ['jpeg', 'image/jpeg'],
  ]) {
    const r = await get(PHOTOS, `returnType=URL&format=${format}`);
    assert.equal(r.statusCode, 200, r.body);
    const m = new RegExp(`/images/([0-9a-f]{64}\\.${format})$`).exec(r.json().url);
    assert.ok(m, r.json().url);
    const served = await h.app.inject({ url: `/images/${m![1]}` });
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], type);
  }
});

test('HEAD and Content-Disposition for JPEG and WebP name the file by the content type', async (t) => {
  const { h, get } = await client(t);
  const { apiKey } = await h.account('pro', 'head@example.com');
  for (const [q, type, ext] of [
    ['format=JPEG', 'image/jpeg', 'jpeg'],
    ['format=webp&aspectRatio=4:5', 'image/webp', 'webp'],
  ]) {
    const head = await h.app.inject({
      method: 'HEAD',
      url: `/api/v1/screenshot/${PHOTOS}?${q}`,
      headers: { 'x-api-key': apiKey },
    });
    assert.equal(head.statusCode, 200, head.body);
    assert.equal(head.headers['content-type'], type);
    assert.equal(head.headers['content-disposition'], `inline; filename="post-${PHOTOS}.${ext}"`);
    assert.equal(head.rawPayload.length, 0);
    const got = await get(PHOTOS, q);
    assert.equal(got.headers['content-type'], type);
    assert.equal(got.headers['content-disposition'], `inline; filename="post-${PHOTOS}.${ext}"`);
  }
});

test("JPEG without a container is laid on the theme's background, not black", async (t) => {
  const { get } = await client(t);
  for (const [theme, expected] of [
    ['light', [255, 255, 255]],
    ['dim', [0x15, 0x20, 0x2b]],
  ] as const) {
    const jpeg = await get(PHOTOS, `format=jpeg&scale=1&borderRadius=40&theme=${theme}`);
    const { data, info } = await sharp(jpeg.rawPayload).raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.width, 550);
    const corner = Array.from(data.subarray(0, 3));
    for (let c = 0; c < 3; c++) assert.ok(Math.abs(corner[c] - expected[c]) <= 6, `${theme} corner: ${corner}`);
  }
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderUsageChart } from '../../src/http/account/chart.ts';

const DAY = Date.UTC(2026, 10, 27);

/** The numbers on the chart's vertical scale, top to bottom. */
function scale(requests: number): string[] {
  const svg = renderUsageChart([
    { day: DAY, requests: { screenshot: requests, content: 0, bulk: 0 }, credits: requests },
  ]).toString();
  return [...svg.matchAll(/<text class="tick"[^>]*text-anchor="end">([^<]*)<\/text>/g)].map((m) => m[1]).slice(0, 3);
}

test('the usage chart counts requests in whole numbers on every line of its scale', () => {
  for (let n = 0; n <= 120; n++) {
    const ticks = scale(n);
    assert.equal(ticks.length, 3, String(n));
    for (const tick of ticks) assert.match(tick, /^\d+$/, `${n} requests: scale ${ticks.join(', ')}`);
    assert.ok(Number(ticks[0]) >= n, `${n} requests fit under ${ticks[0]}`);
  }
  assert.deepEqual(scale(9), ['10', '5', '0']);
  assert.deepEqual(scale(3), ['4', '2', '0']);
  assert.deepEqual(scale(42), ['50', '25', '0']);
});

test('the usage chart names each date under it once: one day is one date, under its bar', () => {
  const bar = (day: number) => ({ day, requests: { screenshot: 1, content: 2, bulk: 0 }, credits: 3 });
  const dates = (svg: string) => [...svg.matchAll(/<text class="tick"[^>]*>(\d+ \w+ \d{4})<\/text>/g)].map((m) => m[1]);
  const one = renderUsageChart([bar(DAY)]).toString();
  assert.equal(dates(one).length, 1, one);
  assert.match(one, /aria-label="Requests on [^"]*: 3\."/);
  const rect = /<rect [^>]*x="([\d.]+)"[^>]*width="([\d.]+)"/.exec(one)!;
  const middle = Number(rect[1]) + Number(rect[2]) / 2;
  const label = Number(/<text class="tick" x="([\d.]+)"[^>]*text-anchor="middle">\d+ \w+ \d{4}/.exec(one)?.[1]);
  assert.ok(Math.abs(label - middle) < 1, `the date at ${label}, the bar's middle at ${middle}`);
  const two = renderUsageChart([bar(DAY), bar(DAY + 86_400_000)]).toString();
  assert.equal(new Set(dates(two)).size, 2);
});

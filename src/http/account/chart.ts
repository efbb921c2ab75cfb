import type { DayBar, EndpointFamily } from '../../account/overview.ts';
import { formatDate } from './format.ts';
import { html, type SafeHtml } from './html.ts';

export const FAMILIES: Array<[EndpointFamily, string]> = [
  ['screenshot', 'Screenshot'],
  ['content', 'Content'],
  ['bulk', 'Bulk content'],
];

const W = 640;
const H = 200;
const PAD = { top: 12, right: 8, bottom: 24, left: 36 };

/** The top of the scale: a round number, and an even one, so that the middle line is a whole number too. */
function niceMax(n: number): number {
  if (n <= 4) return 4;
  if (n < 10) return n + (n % 2);
  const step = 10 ** Math.floor(Math.log10(n));
  return Math.ceil(n / step) * step;
}

/**
 * Requests per day as stacked bars, drawn on the server: no script, and colours come from the
 * stylesheet (classes), so the chart follows the colour scheme. The table below carries the same numbers.
 */
export function renderUsageChart(days: DayBar[]): SafeHtml {
  const totals = days.map((d) => d.requests.screenshot + d.requests.content + d.requests.bulk);
  const max = niceMax(Math.max(0, ...totals));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(2, Math.min(28, slot * 0.7));
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const bars = days.map((d, i) => {
    const x = PAD.left + i * slot + (slot - barW) / 2;
    let base = 0;
    return FAMILIES.map(([family]) => {
      const n = d.requests[family];
      if (n === 0) return '';
      const rect = html`<rect class="bar-${family}" x="${x.toFixed(1)}" y="${y(base + n).toFixed(1)}" width="${barW.toFixed(1)}" height="${((n / max) * plotH).toFixed(1)}"><title>${formatDate(d.day)}: ${n} ${family}</title></rect>`;
      base += n;
      return rect;
    });
  });
  const total = totals.reduce((a, b) => a + b, 0);
  const first = formatDate(days[0].day);
  const last = formatDate(days[days.length - 1].day);
  // A period of one day (a free account's first) has one date: said once, under its bar.
  const label =
    days.length === 1
      ? `Requests on ${first}: ${total}.`
      : `Requests per day from ${first} to ${last}: ${total} in all.`;
  const dates =
    days.length === 1
      ? html`<text class="tick" x="${PAD.left + plotW / 2}" y="${H - 6}" text-anchor="middle">${first}</text>`
      : html`<text class="tick" x="${PAD.left}" y="${H - 6}">${first}</text>
  <text class="tick" x="${W - PAD.right}" y="${H - 6}" text-anchor="end">${last}</text>`;
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">
  <line class="axis" x1="${PAD.left}" y1="${y(0)}" x2="${W - PAD.right}" y2="${y(0)}"/>
  <line class="grid" x1="${PAD.left}" y1="${y(max)}" x2="${W - PAD.right}" y2="${y(max)}"/>
  <line class="grid" x1="${PAD.left}" y1="${y(max / 2)}" x2="${W - PAD.right}" y2="${y(max / 2)}"/>
  <text class="tick" x="${PAD.left - 6}" y="${y(max) + 4}" text-anchor="end">${max}</text>
  <text class="tick" x="${PAD.left - 6}" y="${y(max / 2) + 4}" text-anchor="end">${max / 2}</text>
  <text class="tick" x="${PAD.left - 6}" y="${y(0) + 4}" text-anchor="end">0</text>
  ${bars}
  ${dates}
</svg>`;
}

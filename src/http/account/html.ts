import { escape as escapeText } from 'html-escaper';

/** Markup that is already escaped; anything else interpolated into `html` is escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = SafeHtml | string | number | null | undefined | false | Part[];

function renderPart(part: Part): string {
  if (part instanceof SafeHtml) return part.value;
  if (Array.isArray(part)) return part.map(renderPart).join('');
  if (part === null || part === undefined || part === false) return '';
  return escapeText(String(part));
}

/** Tagged template for the account pages: every interpolated value is HTML-escaped unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += renderPart(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

import type { FastifyInstance } from 'fastify';
import { parse } from 'fast-querystring';
import { refuseForeignCharset } from '../body-charset.ts';
import { ProblemError } from '../problem.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** True when every %-escape is two hex digits and together they spell UTF-8. */
function hasUtf8Escapes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads the account pages' forms (application/x-www-form-urlencoded) as a browser sends them from
 * a UTF-8 page. Another charset, bytes or escapes that are not UTF-8 are refused: the parser
 * would keep a bad escape as its literal text, and a name would be saved as "%FF".
 */
export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (request, body, done) => {
    const refusal = refuseForeignCharset(request.headers['content-type'], 'the form');
    if (refusal) return done(refusal, undefined);
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      return done(new ProblemError('bad_request', 'The form is not valid UTF-8.'), undefined);
    }
    if (!hasUtf8Escapes(text))
      return done(new ProblemError('bad_request', 'The form holds a %-escape that is not UTF-8.'), undefined);
    done(null, parse(text));
  });
}

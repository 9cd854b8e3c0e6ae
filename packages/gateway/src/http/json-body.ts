import { ApiError } from '@herald/model';
import type { FastifyInstance } from 'fastify';

const invalidJson = (message = 'Request body does not contain valid JSON.') => new ApiError(400, { code: 'InvalidJsonInput', message });

/**
 * Bodies nested deeper than this are refused before they are parsed: every later step (the
 * reviver, validation, JSON serialisation, jsonb) recurses over the value, and no request of the
 * API comes near this depth.
 */
export const MAX_JSON_DEPTH = 128;

/** Whether `text` nests objects and arrays deeper than `max` (strings are skipped; linear). */
function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      if (++depth > max) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** A NUL character or an unpaired UTF-16 surrogate: valid JSON escapes that no database stores. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

class UnstorableText extends Error {}

/**
 * JSON bodies: a parse failure is a 400 `InvalidJsonInput`; `__proto__` keys are dropped by
 * parsing into plain data with a reviver (prototype poisoning). An empty body parses as undefined
 * so that routes decide whether they need one. Nesting beyond `MAX_JSON_DEPTH` is refused before
 * parsing; NUL characters and unpaired surrogates (in keys or string values) are refused as
 * `InvalidInput`, as PostgreSQL cannot store them.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  // Only JSON (and the OAuth form bodies, registered by that module) are accepted: any other content
  // type, text/plain included, is a 415 in the error shape.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(invalidJson(`Request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`), undefined);
    }
    try {
      // Without a `\u` escape, a parsed key or string holds exactly the characters of the text: when
      // the text has no `__proto__` and nothing unstorable, no value can, and the reviver (a call per
      // key and value) is not needed.
      if (!text.includes('\\u') && !text.includes('__proto__') && !UNSTORABLE.test(text)) return done(null, JSON.parse(text));
      done(
        null,
        JSON.parse(text, (key, value: unknown) => {
          if (UNSTORABLE.test(key) || (typeof value === 'string' && UNSTORABLE.test(value))) throw new UnstorableText();
          return key === '__proto__' ? undefined : value;
        }),
      );
    } catch (error) {
      if (error instanceof UnstorableText) {
        return done(
          new ApiError(400, {
            code: 'InvalidInput',
            message: 'Request body contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored.',
          }),
          undefined,
        );
      }
      done(invalidJson(), undefined);
    }
  });
}

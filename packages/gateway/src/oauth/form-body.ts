import type { FastifyInstance, FastifyRequest } from 'fastify';
import { oauthError } from './errors.js';

const FORM = 'application/x-www-form-urlencoded';

/** The parsed parameters of a token request; a class so a JSON body can never pass for one. */
export class FormParameters {
  constructor(
    private readonly values: ReadonlyMap<string, string>,
    /** Why the form is invalid; reported by `formOf` so that each route decides how to answer. */
    readonly problem?: string,
  ) {}

  get(name: string): string | undefined {
    return this.values.get(name);
  }
}

/**
 * RFC 6749 §3.2: token requests are `application/x-www-form-urlencoded`. Parsed with
 * URLSearchParams, which also takes what the official SDK sends — `scope=manage_project:p view_orders:p`
 * with a literal space and colon (a '+' becomes a space, which is what it means in this format).
 * A parameter sent twice is rejected (RFC 6749 §3.1). Registered only in the OAuth plugin, so no
 * resource endpoint starts accepting form bodies.
 */
export function installFormBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const values = new Map<string, string>();
    for (const [name, value] of new URLSearchParams(text)) {
      if (values.has(name)) {
        done(null, new FormParameters(new Map(), `The parameter '${name.slice(0, 64)}' must not be repeated.`));
        return;
      }
      values.set(name, value);
    }
    done(null, new FormParameters(values));
  });
}

/** The form of a token request; an empty body is an empty form, any other content type a 400. */
export function formOf(request: FastifyRequest): FormParameters {
  if (request.body instanceof FormParameters) {
    if (request.body.problem !== undefined) throw oauthError('invalid_request', request.body.problem);
    return request.body;
  }
  if (request.body === undefined || request.body === null) return new FormParameters(new Map());
  throw oauthError('invalid_request', `Token requests must be sent as ${FORM}.`);
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { oauthError } from './errors.js';

const FORM = 'application/x-www-form-urlencoded';
const FORM_BODY_LIMIT = 16 * 1024;
const NOT_A_FORM = `Token requests must be sent as ${FORM}.`;

/** The parsed parameters of a token request; a class so a JSON body can never pass for one. */
export class FormParameters {
  constructor(
    private readonly values: ReadonlyMap<string, string>,
    /** Why the form is invalid; reported by `formOf` so that each route decides how to answer. */
    readonly problem?: string,
  ) {}

  /**
   * RFC 6749 §3.1: "Parameters sent without a value MUST be treated as if they were omitted from
   * the request": `anonymous_id=` asks for a generated id, `scope=` for the client's scopes.
   */
  get(name: string): string | undefined {
    const value = this.values.get(name);
    return value === '' ? undefined : value;
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
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
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
  // Every other body — JSON (well-formed or not), text/plain, multipart, no content type — would be
  // refused by the gateway's parsers with the resource endpoints' 415 "must send application/json"
  // or 400 InvalidJsonInput: no OAuth error (RFC 6749 §5.2), and before client authentication and
  // the rate limit. In this plugin only, it is read (within the same limit) and handed to the route
  // as a form with a problem, which `formOf` answers 400 invalid_request once the client is known.
  const notAForm = (_request: FastifyRequest, _body: unknown, done: (error: null, body: FormParameters) => void) =>
    done(null, new FormParameters(new Map(), NOT_A_FORM));
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT }, notAForm);
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT }, notAForm);
}

/** The form of a token request; an empty body is an empty form, any other content type a 400. */
export function formOf(request: FastifyRequest): FormParameters {
  if (request.body instanceof FormParameters) {
    if (request.body.problem !== undefined) throw oauthError('invalid_request', request.body.problem);
    return request.body;
  }
  if (request.body === undefined || request.body === null) return new FormParameters(new Map());
  throw oauthError('invalid_request', NOT_A_FORM);
}

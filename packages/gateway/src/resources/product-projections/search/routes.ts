import { invalidInput, type Clock } from '@herald/model';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResourceDeps } from '../../shared/context.js';
import { expanding, type Expansion, type ResourceParams } from '../../shared/route-helpers.js';
import type { RawQuery } from '../options.js';
import { PROJECTION_SCOPES } from '../scopes.js';
import type { SearchResponse } from './search.js';
import { searchProjections } from './service.js';

const FORM = 'application/x-www-form-urlencoded';
/** The POST form's size limit: the reference moves long filter lists into the body (GET URLs stop at 8192 characters). */
const FORM_BODY_LIMIT = 64 * 1024;

/** A parsed form body, a class so that a JSON body can never pass for one. */
class SearchForm {
  constructor(readonly query: RawQuery) {}
}

function formQuery(text: string): RawQuery {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = query[name];
    query[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return query;
}

/** POST takes "the same query parameters as the GET method, within the request body in URL-encoded format". */
function postedQuery(request: FastifyRequest): RawQuery {
  if (request.body instanceof SearchForm) return { ...(request.query as RawQuery), ...request.body.query };
  if (request.body === undefined || request.body === null) return request.query as RawQuery;
  throw invalidInput(`The search parameters must be sent as ${FORM}.`);
}

/**
 * `/{projectKey}/product-projections/search`, GET and POST (resources/product-projections-search.raml).
 * The POST form parser is registered in an encapsulated scope so that no other route accepts forms.
 */
export function registerSearchRoutes(app: FastifyInstance, deps: ResourceDeps, clock: Clock): void {
  const { documents } = deps;
  const search = async (request: FastifyRequest, query: RawQuery, expansion: Expansion): Promise<SearchResponse> => {
    const { projectKey } = request.params as ResourceParams;
    const response = await searchProjections({ documents, clock, projectKey, query, auth: request.auth });
    return { ...response, results: await expansion.all(response.results) };
  };

  app.get(
    '/:projectKey/product-projections/search',
    { config: PROJECTION_SCOPES },
    expanding(documents, (request, expansion) => search(request, request.query as RawQuery, expansion)),
  );

  void app.register(async (scope) => {
    scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
      done(null, new SearchForm(formQuery(typeof body === 'string' ? body : body.toString('utf8'))));
    });
    scope.post(
      '/:projectKey/product-projections/search',
      { config: PROJECTION_SCOPES },
      expanding(documents, (request, expansion) => search(request, postedQuery(request), expansion)),
    );
  });
}

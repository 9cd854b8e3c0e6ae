import type { Clock } from '@herald/model';
import { DatabaseUnavailableError, type DocumentStore } from '@herald/store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse, type GraphQLFormattedError } from 'graphql';
import mercurius from 'mercurius';
import type { HeraldConfig } from '../config/config.js';
import type { BusinessUnitService } from '../resources/business-units/service.js';
import { requestContext } from '../resources/shared/context.js';
import { GRAPHQL_SCOPES } from './access.js';
import { createLoaders, type GraphQLContext, type ProjectSettings } from './context.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../http/errors.js';
import { formatError, requestError } from './errors.js';
import { graphiqlPage } from './graphiql.js';
import { IntrospectionBounds, isIntrospection } from './introspection.js';
import { MAX_DOCUMENT_TOKENS, MAX_QUERY_COST, operationCost, operationDepth, runnableOperation, type RunnableOperation } from './query-cost.js';
import { ReadBudget } from './read-budget.js';
import { mercuriusResolvers } from './resolvers/index.js';
import { typeDefs } from './schema/index.js';

export interface GraphqlDeps {
  documents: DocumentStore;
  businessUnits: BusinessUnitService;
  projectSettings: ProjectSettings;
  clock: Clock;
}

export interface GraphqlOptions {
  /** `development` serves the GraphiQL page; introspection is on in every mode. */
  mode: HeraldConfig['mode'];
  /** The project the GraphiQL page opens first. */
  defaultProjectKey: string;
}

/** Deep queries (ancestors of parents of …) are bounded; the tree itself is a handful of levels. */
const MAX_QUERY_DEPTH = 12;

/**
 * Why a document is refused before it runs, or undefined: data queries by their depth and by what
 * they could read (query-cost.ts), introspection documents by their own bounds (introspection.ts),
 * so that the standard introspection query of GraphiQL, Apollo and graphql-codegen is answered.
 */
function limitRefusal(operation: RunnableOperation, introspection: IntrospectionBounds): { code: string; message: string; cost?: number } | undefined {
  if (isIntrospection(operation)) return introspection.refusal(operation);
  const cost = operationCost(operation);
  if (cost > MAX_QUERY_COST) {
    return {
      code: 'QueryComplexityExceeded',
      cost,
      message: `The query could read about ${Math.min(cost, 1e9)} documents; at most ${MAX_QUERY_COST} per request. Lower the page limits or split the query.`,
    };
  }
  const depth = operationDepth(operation);
  if (depth > MAX_QUERY_DEPTH) return { code: 'QueryDepthExceeded', message: `The query nests ${depth} levels deep; at most ${MAX_QUERY_DEPTH}.` };
  return undefined;
}

/**
 * Nesting of `{`, `[` and `(` in a document's text, checked before graphql-js parses it: its
 * recursive-descent parser overflows the stack on thousands of levels (e.g. a list literal
 * `[[[[…]]]]` in an argument), which no selection-depth limit sees as it runs after parsing.
 */
const MAX_DOCUMENT_NESTING = 64;

/**
 * mercurius takes a `query` that graphql-js cannot parse as a JSON-encoded syntax tree, which it
 * then validates and runs unchecked (`"1"`, `"{}"` or a tree without selections crash graphql-js).
 * No GraphQL document is valid JSON, so such a query is refused as a syntax error.
 */
function isJsonText(query: string): boolean {
  try {
    JSON.parse(query);
    return true;
  } catch {
    return false;
  }
}

/** Whether a GraphQL document nests deeper than `max` (strings, block strings, comments skipped). */
function documentNestedDeeperThan(query: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < query.length; i++) {
    const char = query[i];
    if (char === '#') {
      while (i < query.length && query[i] !== '\n' && query[i] !== '\r') i++;
    } else if (char === '"') {
      if (query.startsWith('"""', i)) {
        const end = query.indexOf('"""', i + 3);
        i = end < 0 ? query.length : end + 2;
      } else {
        for (i++; i < query.length && query[i] !== '"' && query[i] !== '\n'; i++) if (query[i] === '\\') i++;
      }
    } else if (char === '{' || char === '[' || char === '(') {
      if (++depth > max) return true;
    } else if (char === '}' || char === ']' || char === ')') {
      depth--;
    }
  }
  return false;
}

interface GraphQLRequestBody {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** A GraphQL-over-HTTP POST body; anything else is a 400 in the GraphQL error shape. */
function requestBody(body: unknown): GraphQLRequestBody | string {
  if (Array.isArray(body)) return 'Batched GraphQL requests are not supported; send one {query, variables, operationName} object.';
  if (typeof body !== 'object' || body === null) return "The body must be a JSON object with a 'query' string.";
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return "The body must have a non-empty 'query' string.";
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
    return "'variables' must be a JSON object.";
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return "'operationName' must be a string.";
  return {
    query,
    ...(variables === undefined || variables === null ? {} : { variables: variables as Record<string, unknown> }),
    ...(typeof operationName === 'string' ? { operationName } : {}),
  };
}

interface MercuriusValidationError {
  code: 'MER_ERR_GQL_VALIDATION';
  errors: ReadonlyArray<Error & { code?: string }>;
}

function isMercuriusValidationError(error: unknown): error is MercuriusValidationError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'MER_ERR_GQL_VALIDATION' &&
    Array.isArray((error as { errors?: unknown }).errors)
  );
}

/**
 * Why mercurius refused to execute a document, as an error code. It reports syntax errors,
 * validation errors and variable coercion alike; parsing again (only on this error path) tells
 * syntax apart, and the rest are request errors of a well-formed document.
 *
 * Only `parse` and plain properties are used here: under vitest this module and mercurius load
 * two copies of graphql-js, so neither `instanceof GraphQLError` nor mercurius's schema object
 * may cross between them.
 */
function refusalCode(query: string): string {
  try {
    parse(query, { maxTokens: MAX_DOCUMENT_TOKENS });
  } catch {
    return 'GraphQLSyntaxError';
  }
  return 'GraphQLValidationError';
}

function refusedBecause(cause: Error, code: string): GraphQLFormattedError {
  const locations = (cause as { locations?: GraphQLFormattedError['locations'] }).locations;
  return { message: cause.message, ...(Array.isArray(locations) ? { locations } : {}), extensions: { code } };
}

function refusal(query: string, error: MercuriusValidationError): { errors: GraphQLFormattedError[] } {
  const code = refusalCode(query);
  return { errors: error.errors.map((cause) => refusedBecause(cause, code)) };
}

/**
 * A document that did not run at all: graphql-js answers a missing required variable, an unknown
 * `operationName` or an operation the schema has no root for without data and with errors that
 * name no field (`path`). mercurius checks these before execution only when the body has a
 * `variables` member; without one they come out of execution, and must be refused the same way.
 */
function isRequestError(execution: { data?: unknown; errors: ReadonlyArray<{ path?: unknown }> }): boolean {
  return (execution.data === undefined || execution.data === null) && execution.errors.every((error) => error.path === undefined);
}

/**
 * `POST /{projectKey}/graphql` (§4.3): mercurius executes Herald's schema; the route is Herald's
 * own so it declares its scopes like every route and shapes every answer:
 * - executed requests answer 200 with `data` and, per failed field, a GraphQL error whose
 *   `extensions.code` is the REST error code (see errors.ts);
 * - documents that cannot run (syntax, validation, variables, depth, cost) and bodies that are no
 *   GraphQL request answer 400 in the GraphQL error shape, and so do requests that read more
 *   documents while running than MAX_QUERY_COST (read-budget.ts);
 * - authentication and HTTP-level failures (401, 403 without any GraphQL scope, bad JSON) answer
 *   like every other endpoint, before GraphQL is involved.
 */
export function registerGraphql(app: FastifyInstance, deps: GraphqlDeps, options: GraphqlOptions): void {
  const introspection = new IntrospectionBounds(typeDefs);
  void app.register(async (scope) => {
    await scope.register(mercurius, {
      schema: typeDefs,
      resolvers: mercuriusResolvers,
      routes: false,
      graphiql: false,
      graphql: { parseOptions: { maxTokens: MAX_DOCUMENT_TOKENS } },
      errorFormatter: (execution, context) => {
        const budget = (context as unknown as Partial<GraphQLContext>).readBudget;
        if (budget?.exceeded === true) {
          context.reply.log.info({ code: 'QueryComplexityExceeded' }, 'GraphQL request stopped');
          return { statusCode: 400, response: requestError(budget.message, 'QueryComplexityExceeded') };
        }
        // The database out of reach fails the request as on REST: 503 with Retry-After, the
        // errors in the GraphQL shape (code OverCapacity, see http/errors.ts), no partial data.
        if (execution.errors.some((error) => error.originalError instanceof DatabaseUnavailableError)) {
          void context.reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
          return { statusCode: 503, response: { data: null, errors: execution.errors.map((error) => formatError(error, context.reply.log)) } };
        }
        if (isRequestError(execution)) {
          context.reply.log.info({ code: 'GraphQLValidationError' }, 'GraphQL document refused');
          return { statusCode: 400, response: { errors: execution.errors.map((error) => refusedBecause(error, 'GraphQLValidationError')) } };
        }
        return {
          statusCode: 200,
          response: { data: execution.data ?? null, errors: execution.errors.map((error) => formatError(error, context.reply.log)) },
        };
      },
    });

    scope.post('/:projectKey/graphql', { config: { auth: { anyOf: GRAPHQL_SCOPES } } }, async (request: FastifyRequest, reply: FastifyReply) => {
      const body = requestBody(request.body);
      if (typeof body === 'string') return reply.status(400).send(requestError(body));
      if (isJsonText(body.query)) {
        request.log.info({ code: 'GraphQLSyntaxError' }, 'GraphQL document refused');
        return reply.status(400).send(requestError("'query' must be a GraphQL document.", 'GraphQLSyntaxError'));
      }
      if (documentNestedDeeperThan(body.query, MAX_DOCUMENT_NESTING)) {
        request.log.info({ code: 'QueryDepthExceeded' }, 'GraphQL document refused');
        return reply
          .status(400)
          .send(requestError(`The document nests selections, lists and objects more than ${MAX_DOCUMENT_NESTING} levels deep.`, 'QueryDepthExceeded'));
      }
      const operation = runnableOperation(body.query, body.operationName, body.variables);
      const refused = operation === undefined ? undefined : limitRefusal(operation, introspection);
      if (refused !== undefined) {
        request.log.info({ code: refused.code, ...(refused.cost === undefined ? {} : { cost: refused.cost }) }, 'GraphQL document refused');
        return reply.status(400).send(requestError(refused.message, refused.code));
      }
      const auth = request.auth;
      if (auth === undefined) throw new Error('GraphQL route reached without authentication');
      const ctx = requestContext(request, deps.documents);
      const readBudget = new ReadBudget(MAX_QUERY_COST);
      const context: GraphQLContext = {
        auth,
        projectKey: ctx.projectKey,
        request: ctx,
        services: deps,
        loaders: createLoaders(deps.documents, ctx.projectKey, readBudget),
        readBudget,
        log: request.log,
      };
      try {
        return await reply.graphql(body.query, { ...context }, body.variables, body.operationName);
      } catch (error) {
        if (!isMercuriusValidationError(error)) throw error;
        request.log.info({ code: 'GraphQLRefused' }, 'GraphQL document refused');
        return reply.status(400).send(refusal(body.query, error));
      }
    });
  });

  if (options.mode === 'development') {
    const page = graphiqlPage(options.defaultProjectKey);
    app.get('/graphiql', { config: { auth: 'public' } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
  }
}

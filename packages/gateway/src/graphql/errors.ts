import { ApiError } from '@herald/model';
import { fromDatabaseError } from '../http/errors.js';
import type { FastifyBaseLogger } from 'fastify';
import type { GraphQLError, GraphQLFormattedError } from 'graphql';

/**
 * GraphQL errors carry the REST error's `code` and extra fields in `extensions`
 * (`ConcurrentModification` with `currentVersion`, `InvalidInput` with `field`, …), so clients
 * handle both APIs alike. Anything that is not an ApiError is a bug: it is logged and answered
 * as an opaque `General` error, like the REST 500.
 */
export function formatError(error: GraphQLError, log: FastifyBaseLogger): GraphQLFormattedError {
  // A value the database cannot take (a NUL in a GraphQL string literal) is the client's error.
  const original = fromDatabaseError(error.originalError) ?? error.originalError;
  const base = {
    message: error.message,
    ...(error.locations === undefined ? {} : { locations: error.locations }),
    ...(error.path === undefined ? {} : { path: error.path }),
  };
  if (original instanceof ApiError) {
    const { message: _message, code, ...details } = original.errors[0] ?? { code: original.code, message: original.message };
    // A 5xx (the database out of reach) is the server's problem: logged at error with its cause.
    if (original.statusCode >= 500) log.error({ code, statusCode: original.statusCode, err: original.cause ?? original }, original.message);
    else log.info({ code, statusCode: original.statusCode }, original.message);
    return { ...base, message: original.message, extensions: { code, statusCode: original.statusCode, ...details } };
  }
  // By name, not instanceof: mercurius and this module may load different copies of graphql-js.
  if (original !== undefined && original.name !== 'GraphQLError') {
    log.error({ err: original }, 'unhandled error in a GraphQL resolver');
    return { ...base, message: 'Internal Server Error.', extensions: { code: 'General' } };
  }
  // graphql-js's own errors during execution (e.g. a value that does not coerce).
  return { ...base, extensions: { ...error.extensions, code: 'InvalidInput' } };
}

/** A request that is not a GraphQL request at all (no `query`, wrong types): answered as a 400. */
export function requestError(message: string, code = 'InvalidInput'): { errors: GraphQLFormattedError[] } {
  return { errors: [{ message, extensions: { code } }] };
}

import { ApiError, type ErrorObject } from '@herald/model';

/** Which Extension an error is about (reference ErrorByExtension). */
export interface ExtensionIdentity {
  id: string;
  key?: string;
}

const byExtension = (extension: ExtensionIdentity) => ({ id: extension.id, ...(extension.key === undefined ? {} : { key: extension.key }) });
const extensionFields = (extension: ExtensionIdentity) => ({
  extensionId: extension.id,
  ...(extension.key === undefined ? {} : { extensionKey: extension.key }),
});

/** An error the Extension answered, as the reference's ExtensionError (its own fields kept). */
export type ExtensionError = ErrorObject & { extensionId: string; extensionKey?: string };

/** ExtensionNoResponse (504): no answer within `timeoutInMs`, or the destination could not be reached. */
export function extensionNoResponse(extension: ExtensionIdentity, why: string): ApiError {
  return new ApiError(504, { code: 'ExtensionNoResponse', message: `Extension did not respond in time: ${why}.`, ...extensionFields(extension) });
}

/** ExtensionBadResponse (502): an answer that cannot be used (a 5xx, a redirect, invalid JSON, an unknown shape). */
export function extensionBadResponse(extension: ExtensionIdentity, why: string, answer: { statusCode?: number; body?: string } = {}): ApiError {
  return new ApiError(502, {
    code: 'ExtensionBadResponse',
    message: `The extension did not return the expected JSON: ${why}.`,
    extensionErrors: [],
    ...(answer.body === undefined ? {} : { extensionBody: answer.body.slice(0, 4096) }),
    ...(answer.statusCode === undefined ? {} : { extensionStatusCode: answer.statusCode }),
    ...extensionFields(extension),
  });
}

/**
 * The errors a failed validation answered (status 400 with `errors`), passed to the client as they
 * are, each naming the Extension (`errorByExtension`).
 */
export function errorsFromExtension(extension: ExtensionIdentity, errors: readonly ErrorObject[]): ApiError {
  const [first, ...more] = errors.map((error) => ({ ...error, errorByExtension: byExtension(extension) }));
  return new ApiError(400, first as ErrorObject, more);
}

/** ExtensionUpdateActionsFailed (400): the returned update actions could not be applied. */
export function extensionUpdateActionsFailed(extension: ExtensionIdentity, cause: ApiError): ApiError {
  return new ApiError(400, {
    code: 'ExtensionUpdateActionsFailed',
    message: 'The extension returned update actions that could not be executed.',
    extensionErrors: cause.errors.map((error): ExtensionError => ({ ...error, ...extensionFields(extension) })),
  });
}

/** ExtensionPredicateEvaluationFailed (400): the trigger's condition compares a field the resource lacks. */
export function extensionPredicateEvaluationFailed(extension: ExtensionIdentity, message: string): ApiError {
  return new ApiError(400, { code: 'ExtensionPredicateEvaluationFailed', message, errorByExtension: byExtension(extension) });
}

/** ExtensionDependencyExists (400): a delete of an Extension others depend on. */
export function extensionDependencyExists(dependents: readonly string[]): ApiError {
  return new ApiError(400, {
    code: 'ExtensionDependencyExists',
    message: `The extension cannot be deleted because it is a prerequisite for: [${dependents.join(', ')}].`,
  });
}

/** ExtensionChainTooDeep (400): a dependency chain over MAX_CHAIN_DEPTH layers. */
export function extensionChainTooDeep(depth: number, maximum: number): ApiError {
  return new ApiError(400, {
    code: 'ExtensionChainTooDeep',
    message: `The dependency chain depth ${depth} exceeds the maximum allowed depth of ${maximum}`,
  });
}

/** ExtensionChainTooWide (400): more direct dependencies than allowed. */
export function extensionChainTooWide(maximum: number): ApiError {
  return new ApiError(400, { code: 'ExtensionChainTooWide', message: `Extension chain breadth exceeds the maximum allowed breadth of ${maximum}` });
}

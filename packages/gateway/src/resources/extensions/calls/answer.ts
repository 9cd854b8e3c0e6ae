import type { ApiError, ErrorObject } from '@herald/model';
import type { UpdateAction } from '../../shared/update-actions.js';
import { errorsFromExtension, extensionBadResponse, type ExtensionIdentity } from '../errors.js';
import { MAX_RETURNED_ACTIONS } from '../extension.js';

/** What a call to an Extension came to: update actions to apply (maybe none), or an error to answer. */
export type ExtensionOutcome = { ok: true; actions: UpdateAction[] } | { ok: false; error: ApiError };

export const noActions: ExtensionOutcome = { ok: true, actions: [] };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses an answer body; undefined when it is not JSON. */
export function parsedJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** `actions` (HTTP) or `updateActions` (Lambda): at most 100 objects naming an `action`. */
export function returnedActions(extension: ExtensionIdentity, value: unknown, answer: { statusCode?: number; body?: string }): ExtensionOutcome {
  if (value === undefined || value === null) return noActions;
  const valid = Array.isArray(value) && value.every((action) => isObject(action) && typeof action.action === 'string');
  if (!valid) return { ok: false, error: extensionBadResponse(extension, "'actions' must be an array of update actions", answer) };
  if (value.length > MAX_RETURNED_ACTIONS) {
    return { ok: false, error: extensionBadResponse(extension, `at most ${MAX_RETURNED_ACTIONS} update actions may be returned`, answer) };
  }
  return { ok: true, actions: value as UpdateAction[] };
}

/** A failed validation's `errors`: a non-empty array of `{code, message, …}`, passed on as they are. */
export function returnedErrors(extension: ExtensionIdentity, value: unknown, answer: { statusCode?: number; body?: string }): ExtensionOutcome {
  const valid =
    Array.isArray(value) && value.length > 0 && value.every((error) => isObject(error) && typeof error.code === 'string' && typeof error.message === 'string');
  if (!valid) return { ok: false, error: extensionBadResponse(extension, "a failed validation must list 'errors' with a code and a message each", answer) };
  return { ok: false, error: errorsFromExtension(extension, value as ErrorObject[]) };
}

/**
 * An HTTP answer (HttpDestination, GoogleCloudFunction): 200 or 201 with optional `{actions}` (an
 * empty body: nothing to change); 400 with `{errors}`: the validation failed; anything else
 * (redirects are not followed, 5xx, other 4xx, not JSON) is an ExtensionBadResponse.
 */
export function httpOutcome(extension: ExtensionIdentity, statusCode: number, body: string): ExtensionOutcome {
  const answer = { statusCode, body };
  if (statusCode === 200 || statusCode === 201) {
    if (body.trim() === '') return noActions;
    const parsed = parsedJson(body);
    if (parsed === undefined || !isObject(parsed.value))
      return { ok: false, error: extensionBadResponse(extension, 'the answer is not a JSON object', answer) };
    return returnedActions(extension, parsed.value.actions, answer);
  }
  if (statusCode === 400) {
    const parsed = parsedJson(body);
    return returnedErrors(extension, parsed !== undefined && isObject(parsed.value) ? parsed.value.errors : undefined, answer);
  }
  return { ok: false, error: extensionBadResponse(extension, `the extension answered HTTP ${statusCode}`, answer) };
}

/**
 * A Lambda function's result: `{responseType: "UpdateRequest", updateActions}` or
 * `{responseType: "FailedValidation", errors}` (the platform's contract for AWSLambda destinations).
 */
export function lambdaOutcome(extension: ExtensionIdentity, body: string): ExtensionOutcome {
  const parsed = parsedJson(body);
  const value = parsed?.value;
  if (!isObject(value)) return { ok: false, error: extensionBadResponse(extension, 'the function did not return a JSON object', { body }) };
  if (value.responseType === 'UpdateRequest') return returnedActions(extension, value.updateActions, { body });
  if (value.responseType === 'FailedValidation') return returnedErrors(extension, value.errors, { body });
  return { ok: false, error: extensionBadResponse(extension, "'responseType' must be UpdateRequest or FailedValidation", { body }) };
}

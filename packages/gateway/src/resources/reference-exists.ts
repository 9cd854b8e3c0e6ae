import { ApiError } from '@herald/model';

/**
 * 400 ReferenceExists: a delete refused because other resources still point at the resource
 * (`referencedBy`: the type id of one of them).
 */
export function referenceExists(message: string, referencedBy: string): ApiError {
  return new ApiError(400, { code: 'ReferenceExists', message, referencedBy });
}

import { expandReferencesInMany, type DocumentStore, type Locator } from '@herald/store';
import type { FastifyRequest } from 'fastify';
import { repeated } from '../http/query-params.js';

/** Path parameters of a single-resource route: `/{id}` or `/key={key}`. */
export type ResourceParams = { projectKey: string; id?: string; key?: string };

export function locatorOf(params: ResourceParams): Locator {
  return params.key !== undefined ? { key: params.key } : { id: params.id ?? '' };
}

/**
 * §4.4.7 reference expansion of the request's `expand` paths, a page at once (one load per type
 * and level); the path limit applies to empty pages too. Without `expand` the documents are
 * returned as they are.
 */
export async function expandForRequest<D>(request: FastifyRequest, documents: DocumentStore, docs: readonly D[]): Promise<D[]> {
  const paths = repeated(request.query as Record<string, string | string[] | undefined>, 'expand');
  if (paths.length === 0) return [...docs];
  const projectKey = (request.params as ResourceParams).projectKey;
  return expandReferencesInMany(docs, paths, (typeId, ids) => documents.getMany(projectKey, typeId, ids));
}

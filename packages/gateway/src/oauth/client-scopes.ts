import { invalidInput } from '@herald/model';
import { parseProjectScope, splitScopes } from './scopes.js';

/**
 * The scopes of a new API client: space-separated `<scope>:{projectKey}` of its own project only
 * (§5.1). Subject markers (`customer_id:`, `anonymous_id:`) are for tokens, never for clients.
 */
export function validateClientScopes(scope: unknown, projectKey: string): string[] {
  if (typeof scope !== 'string' || scope.length > 4096) {
    throw invalidInput("'scope' must be a space-separated string of <scope>:<projectKey>.", { field: 'scope' });
  }
  const scopes = splitScopes(scope);
  if (scopes.length === 0) throw invalidInput("'scope' must name at least one scope.", { field: 'scope' });
  for (const entry of scopes) {
    const parsed = parseProjectScope(entry);
    if (parsed === undefined || parsed.projectKey !== projectKey) {
      throw invalidInput(`'${entry.slice(0, 120)}' is not a scope of the project '${projectKey}' (<scope>:${projectKey}).`, {
        field: 'scope',
        invalidValue: entry.slice(0, 120),
      });
    }
  }
  return scopes;
}

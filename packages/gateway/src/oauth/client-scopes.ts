import { invalidInput } from '@herald/model';
import { OFFICIAL_SCOPE_NAMES } from './official-scopes.generated.js';
import { parseProjectScope, splitScopes } from './scopes.js';

/**
 * The scope names a client may be given: the official API's, and two Herald's routes also accept
 * (`view_my_profile` beside manage_my_profile on `/me`; `view_subscriptions` for the messages of
 * subscriptions). A name outside them grants nothing, so it is refused rather than stored.
 */
export const KNOWN_SCOPE_NAMES: ReadonlySet<string> = new Set([...OFFICIAL_SCOPE_NAMES, 'view_my_profile', 'view_subscriptions']);

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
    if (!KNOWN_SCOPE_NAMES.has(parsed.name)) {
      throw invalidInput(`'${parsed.name}' is not a scope Herald knows.`, { field: 'scope', invalidValue: entry.slice(0, 120) });
    }
  }
  return scopes;
}

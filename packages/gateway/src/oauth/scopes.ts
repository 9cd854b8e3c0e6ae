/**
 * Scopes (§5.1, §5.8): a granted scope is `<name>:{projectKey}`; tokens of customers and anonymous
 * sessions also carry a subject marker, `customer_id:<id>` or `anonymous_id:<id>`.
 */

/** Names of project scopes: `manage_project`, `view_orders`, `create_anonymous_token`, … */
export const SCOPE_NAME = /^[a-z][a-z0-9_]{0,99}$/;
const PROJECT_KEY = /^[A-Za-z0-9_-]{1,256}$/;

export const CUSTOMER_SUBJECT = 'customer_id';
export const ANONYMOUS_SUBJECT = 'anonymous_id';
const SUBJECT_NAMES: ReadonlySet<string> = new Set([CUSTOMER_SUBJECT, ANONYMOUS_SUBJECT]);

export interface ProjectScope {
  name: string;
  projectKey: string;
}

/** Space-separated scopes as sent and answered (§5.3); duplicates removed, order kept. */
export function splitScopes(text: string): string[] {
  return [...new Set(text.split(/[ \t\r\n]+/).filter((scope) => scope !== ''))];
}

/** `<name>:{projectKey}` or undefined (malformed, or a subject marker). */
export function parseProjectScope(scope: string): ProjectScope | undefined {
  const colon = scope.indexOf(':');
  if (colon < 0) return undefined;
  const name = scope.slice(0, colon);
  const projectKey = scope.slice(colon + 1);
  if (!SCOPE_NAME.test(name) || SUBJECT_NAMES.has(name) || !PROJECT_KEY.test(projectKey)) return undefined;
  return { name, projectKey };
}

/** The customer or anonymous session a token acts for, from its subject markers. */
export function subjectOf(scopes: Iterable<string>): { customerId?: string; anonymousId?: string } {
  const subject: { customerId?: string; anonymousId?: string } = {};
  for (const scope of scopes) {
    if (scope.startsWith(`${CUSTOMER_SUBJECT}:`)) subject.customerId = scope.slice(CUSTOMER_SUBJECT.length + 1);
    else if (scope.startsWith(`${ANONYMOUS_SUBJECT}:`)) subject.anonymousId = scope.slice(ANONYMOUS_SUBJECT.length + 1);
  }
  return subject;
}

/** The scope names a set of scopes grants for one project (without the `:{projectKey}` suffix). */
export function scopeNamesFor(scopes: Iterable<string>, projectKey: string): Set<string> {
  const names = new Set<string>();
  for (const scope of scopes) {
    const parsed = parseProjectScope(scope);
    if (parsed !== undefined && parsed.projectKey === projectKey) names.add(parsed.name);
  }
  return names;
}

/** The projects a set of scopes names. */
export function projectsOf(scopes: Iterable<string>): Set<string> {
  const projects = new Set<string>();
  for (const scope of scopes) {
    const parsed = parseProjectScope(scope);
    if (parsed !== undefined) projects.add(parsed.projectKey);
  }
  return projects;
}

/**
 * Whether held scope names grant `required`: `manage_project` implies every scope of its project
 * (§5.5 names `introspect_oauth_tokens` as one); `manage_X` implies `view_X`.
 */
export function implies(held: ReadonlySet<string>, required: string): boolean {
  if (held.has(required) || held.has('manage_project')) return true;
  return required.startsWith('view_') && held.has(`manage_${required.slice('view_'.length)}`);
}

export function impliesAny(held: ReadonlySet<string>, anyOf: readonly string[]): boolean {
  return anyOf.some((required) => implies(held, required));
}

export function subjectScope(kind: typeof CUSTOMER_SUBJECT | typeof ANONYMOUS_SUBJECT, id: string): string {
  return `${kind}:${id}`;
}

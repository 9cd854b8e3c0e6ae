/**
 * Expansion paths (§4.4.7): `field`, `arrayField[*]`, `arrayField[0]`, `obj.field`,
 * `objArray[*].field`, `nested[*][*].field`. A path that does not parse expands nothing: §7 says a
 * reference that cannot be expanded does not fail the request.
 */

/** At most this many steps (`a.b[*].c` has three), so a path cannot chain expansions forever. */
export const MAX_EXPAND_DEPTH = 10;
const MAX_PATH_LENGTH = 1_000;
const MAX_INDEX = 1_000_000;

export type Selector = 'all' | number;

export interface ExpandStep {
  field: string;
  /** Applied in order to the field's value: `[*]` is 'all', `[3]` is 3. */
  selectors: Selector[];
}

// Field names as they occur in documents, including custom field names such as `my-field`.
const STEP = /^([A-Za-z0-9_-]+)((?:\[(?:\*|\d{1,7})\])*)$/;
const SELECTOR = /\[(\*|\d+)\]/g;

export function parseExpandPath(path: string): ExpandStep[] | undefined {
  if (path.length === 0 || path.length > MAX_PATH_LENGTH) return undefined;
  const parts = path.split('.');
  if (parts.length > MAX_EXPAND_DEPTH) return undefined;
  const steps: ExpandStep[] = [];
  for (const part of parts) {
    const match = STEP.exec(part);
    if (match === null) return undefined;
    const selectors: Selector[] = [];
    for (const [, selector = ''] of (match[2] ?? '').matchAll(SELECTOR)) {
      const index = selector === '*' ? 'all' : Number(selector);
      if (index !== 'all' && index > MAX_INDEX) return undefined;
      selectors.push(index);
    }
    steps.push({ field: match[1] ?? '', selectors });
  }
  return steps;
}

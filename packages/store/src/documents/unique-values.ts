import { createHash } from 'node:crypto';
import type { BaseResource } from '@herald/model';
import type { Queryable } from '../database/types.js';

/**
 * Project-wide unique values (issue 28): values no two documents of one type in a project may
 * hold, e.g. a product's slug per locale and its SKUs. A type declares them once
 * (`DocumentStore.declareUniqueValues`); the store then claims them in the `unique_values` table
 * (migration 012) in the statement or transaction that writes the document, so the primary key
 * refuses a value another document holds, also when two writes race.
 */
export interface UniqueValue {
  /** The claim's domain within the type, and the `field` of the DuplicateField error. */
  field: string;
  /** The claimed text; a localized field's as `locale:text` (one locale's text is unique). */
  value: string;
  /** What the DuplicateField error reports as `duplicateValue` (default: `value`). */
  duplicateValue?: unknown;
}

export type UniqueValuesOf<D extends BaseResource = BaseResource> = (doc: D) => readonly UniqueValue[];

/** The declarations of a store and of every store `within` derives from it. */
export type UniqueValueDeclarations = Map<string, UniqueValuesOf>;

/** Claims to write: parallel arrays of field names and stored values, bound as `text[]`. */
export interface ClaimArrays {
  fields: string[];
  values: string[];
}

/** The claims an update changes: values the new version no longer holds, and new ones. */
export interface ClaimChange {
  release: ClaimArrays;
  claim: ClaimArrays;
  /** The new values, to name the one another document holds when the claim fails. */
  claimed: readonly UniqueValue[];
}

/** Longer values are claimed by their hash: a btree entry has a size limit (about 2,700 bytes). */
const MAX_STORED_BYTES = 1024;

/** The text stored for a value: as it is, or `sha256:<hex>` when longer than the limit (as migration 012). */
export function storedValue(value: string): string {
  if (Buffer.byteLength(value, 'utf8') <= MAX_STORED_BYTES) return value;
  return `sha256:${createHash('sha256').update(value, 'utf8').digest('hex')}`;
}

const claimKey = (field: string, stored: string): string => `${field}\u0000${stored}`;

/** The distinct values of a document: a value may repeat within one (a slug in current and staged). */
export function distinctValues(values: readonly UniqueValue[]): Map<string, UniqueValue> {
  const distinct = new Map<string, UniqueValue>();
  for (const value of values) {
    const key = claimKey(value.field, storedValue(value.value));
    if (!distinct.has(key)) distinct.set(key, value);
  }
  return distinct;
}

function arrays(values: Iterable<UniqueValue>): ClaimArrays {
  const claims: ClaimArrays = { fields: [], values: [] };
  for (const { field, value } of values) {
    claims.fields.push(field);
    claims.values.push(storedValue(value));
  }
  return claims;
}

/** The claims of a created document. */
export function claimsOf(values: readonly UniqueValue[]): { claim: ClaimArrays; claimed: UniqueValue[] } {
  const claimed = [...distinctValues(values).values()];
  return { claim: arrays(claimed), claimed };
}

/** What an update changes: a value both versions hold keeps its claim (a product keeps its own slug). */
export function claimChange(before: readonly UniqueValue[], after: readonly UniqueValue[]): ClaimChange {
  const old = distinctValues(before);
  const next = distinctValues(after);
  const released = [...old].filter(([key]) => !next.has(key)).map(([, value]) => value);
  const claimed = [...next].filter(([key]) => !old.has(key)).map(([, value]) => value);
  return { release: arrays(released), claim: arrays(claimed), claimed };
}

export const isEmptyChange = (change: ClaimChange): boolean => change.release.fields.length === 0 && change.claim.fields.length === 0;

/**
 * The common table expressions that write claims beside a document write, with the resource's
 * project ($1), type ($2) and id (`$idParam`); `fieldsParam` is the first of the four array
 * parameters (claim fields, claim values, release fields, release values). `written` names a
 * CTE whose rows say the document was written: nothing is claimed or released when it was not.
 * A value another document holds fails the statement with a unique violation (23505). Values are
 * claimed in one order, so two writes racing for the same values wait for each other, never in a
 * cycle (a deadlock).
 */
export function claimStatements(idParam: number, fieldsParam: number, written?: string): string {
  const [claimFields, claimValues, releaseFields, releaseValues] = [0, 1, 2, 3].map((offset) => `$${fieldsParam + offset}::text[]`);
  const ifWritten = written === undefined ? '' : ` AND EXISTS (SELECT 1 FROM ${written})`;
  return `released AS (
    DELETE FROM unique_values WHERE project_key = $1 AND type_id = $2 AND resource_id = $${idParam}
      AND (field, value) IN (SELECT * FROM unnest(${releaseFields}, ${releaseValues}))${ifWritten}),
  claimed AS (
    INSERT INTO unique_values (project_key, type_id, field, value, resource_id)
    SELECT $1, $2, wanted.field, wanted.value, $${idParam} FROM unnest(${claimFields}, ${claimValues}) AS wanted(field, value)
    WHERE true${ifWritten}
    ORDER BY wanted.field COLLATE "C", wanted.value COLLATE "C")`;
}

/** The four array parameters of `claimStatements`. */
export const claimParams = (change: Pick<ClaimChange, 'claim'> & Partial<Pick<ClaimChange, 'release'>>): string[][] => [
  change.claim.fields,
  change.claim.values,
  change.release?.fields ?? [],
  change.release?.values ?? [],
];

export const RELEASE_ALL_SQL = 'DELETE FROM unique_values WHERE project_key = $1 AND type_id = $2 AND resource_id = $3';

/** Whether a unique violation is a claim's (the table's primary key), not e.g. a resource key's. */
export function isClaimViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { constraint?: unknown }).constraint === 'unique_values_pkey';
}

/**
 * The one of `claimed` the violation names: PostgreSQL's detail says which key of unique_values
 * already exists (`Key (project_key, type_id, field, value)=(p, product, sku, SKU-1) already
 * exists.`): the one it met first, not necessarily the first in the declared order.
 */
function claimNamedByViolation(error: unknown, projectKey: string, typeId: string, claimed: readonly UniqueValue[]): UniqueValue | undefined {
  const detail = (error as { detail?: unknown }).detail;
  if (typeof detail !== 'string') return undefined;
  return claimed.find((value) => detail.includes(`=(${projectKey}, ${typeId}, ${value.field}, ${storedValue(value.value)}) already exists`));
}

/**
 * Which of `claimed` another resource holds, after the write failed with a claim violation: read
 * outside the failed write (the holder committed before the violation was reported); the first
 * in the declared order when several are. When it cannot be read (the write ran in a caller's
 * transaction, which the violation aborted), the one the violation names; when the holder has
 * released it since, the first new value stands for them.
 */
export async function valueHeldByOther(
  db: Queryable,
  projectKey: string,
  typeId: string,
  resourceId: string,
  claimed: readonly UniqueValue[],
  violation: unknown,
): Promise<UniqueValue | undefined> {
  const { fields, values } = arrays(claimed);
  try {
    const held = await db.query<{ field: string; value: string }>(
      `SELECT held.field, held.value FROM unnest($3::text[], $4::text[]) AS wanted(field, value)
         JOIN unique_values held ON held.project_key = $1 AND held.type_id = $2 AND held.field = wanted.field AND held.value = wanted.value
       WHERE held.resource_id <> $5`,
      [projectKey, typeId, fields, values, resourceId],
    );
    const taken = new Set(held.rows.map((row) => claimKey(row.field, row.value)));
    return claimed.find((value) => taken.has(claimKey(value.field, storedValue(value.value)))) ?? claimed[0];
  } catch {
    return claimNamedByViolation(violation, projectKey, typeId, claimed) ?? claimed[0];
  }
}

import { randomInt } from 'node:crypto';
import { duplicateField, invalidInput, type LocalizedString } from '@herald/model';
import type { Queryable } from '@herald/store';
import { localizedString, nonEmptyLocalizedString } from '../shared/validation.js';
import { CATEGORY_TYPE_ID } from './category.js';

/** CategoryDraft.slug: "Valid slugs must match the pattern `^[A-Za-z0-9_-]{2,256}+$`", per locale. */
const SLUG = /^[A-Za-z0-9_-]{2,256}$/;

/** The reference's category order hint pattern (ProductAddToCategoryAction.orderHint): a decimal in (0, 1). */
const ORDER_HINT = /^0\.[0-9]*[1-9]$/;

// Moved to shared/validation.ts (assets of categories and product variants use it too); re-exported for its callers here.
export { nonEmptyLocalizedString };

export function slug(value: unknown, field = 'slug'): LocalizedString {
  const slugs = nonEmptyLocalizedString(value, field);
  for (const [locale, text] of Object.entries(slugs)) {
    if (!SLUG.test(text)) {
      throw invalidInput(`'${field}.${locale}' must be 2 to 256 characters of letters, digits, '_' and '-'.`, {
        field: `${field}.${locale}`,
        invalidValue: text,
      });
    }
  }
  return slugs;
}

export function orderHint(value: unknown, field = 'orderHint'): string {
  if (typeof value !== 'string' || value.length > 256 || !ORDER_HINT.test(value)) {
    throw invalidInput(`'${field}' must be a decimal between 0 and 1 such as "0.5".`, { field, invalidValue: value });
  }
  return value;
}

/** CategoryDraft.orderHint: "If not set, a random value will be assigned." */
export function randomOrderHint(): string {
  return `0.${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}${randomInt(1, 10)}`;
}

/** An optional LocalizedString field: absent or null leaves it unset. */
export function optionalLocalizedString(value: unknown, field: string): LocalizedString | undefined {
  return value === undefined || value === null ? undefined : localizedString(value, field);
}

/**
 * 400 DuplicateField (field `slug.{locale}`) when another Category of the project has the same
 * slug in one of the same locales ("it must be unique across the Project"). Runs under the
 * category tree lock (tree.ts), so two writes cannot both pass it with one slug. One containment
 * test per locale: the GIN jsonb_path_ops index on `doc` answers `@>`.
 */
export async function assertSlugUnique(tx: Queryable, projectKey: string, slugs: LocalizedString, selfId: string | undefined): Promise<void> {
  const entries = Object.entries(slugs);
  if (entries.length === 0) return;
  const tests = entries.map((_, index) => `doc @> $${index + 4}::jsonb`).join(' OR ');
  const found = await tx.query<{ slug: LocalizedString }>(
    `SELECT doc -> 'slug' AS slug FROM resources
      WHERE project_key = $1 AND type_id = $2 AND id <> $3 AND (${tests}) LIMIT 1`,
    [projectKey, CATEGORY_TYPE_ID, selfId ?? '', ...entries.map(([locale, text]) => JSON.stringify({ slug: { [locale]: text } }))],
  );
  const other = found.rows[0]?.slug;
  if (other === undefined) return;
  const clash = entries.find(([locale, text]) => other[locale] === text);
  const [locale, text] = clash ?? entries[0] ?? ['', ''];
  throw duplicateField(`slug.${locale}`, text);
}

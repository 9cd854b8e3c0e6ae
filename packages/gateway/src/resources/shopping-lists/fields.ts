import { duplicateField, invalidInput, type LocalizedString } from '@herald/model';
import { testedDocumentSql, type Project, type Queryable } from '@herald/store';
import { localizedString } from '../shared/validation.js';
import { SHOPPING_LIST_TYPE_ID } from './shopping-list.js';

/** ShoppingList.slug: "The slug must match the pattern `[a-zA-Z0-9_-]{2,256}`" in every locale. */
const SLUG_PATTERN = /^[a-zA-Z0-9_-]{2,256}$/;

export function slugOf(value: unknown): LocalizedString {
  const slug = localizedString(value, 'slug');
  for (const [locale, text] of Object.entries(slug)) {
    if (!SLUG_PATTERN.test(text))
      throw invalidInput(`'slug.${locale}' must be 2 to 256 characters of letters, digits, '_' and '-'.`, { field: 'slug', invalidValue: text });
  }
  return slug;
}

/**
 * "Each slug is unique across a Project, but a ShoppingList can have the same slug for different
 * languages": 400 DuplicateField when another list has one of these texts in the same locale. A read
 * before the write, as for product slugs (products/uniqueness.ts): two racing creates are accepted.
 */
export async function assertSlugFree(db: Queryable, projectKey: string, slug: LocalizedString, selfId = ''): Promise<void> {
  for (const [locale, text] of Object.entries(slug)) {
    const found = await db.query<{ id: string }>(
      `SELECT r.id FROM resources r WHERE r.project_key = $1 AND r.type_id = $2 AND r.id <> $3 AND ${testedDocumentSql(SHOPPING_LIST_TYPE_ID, false)} @? $4::jsonpath LIMIT 1`,
      [projectKey, SHOPPING_LIST_TYPE_ID, selfId, `$.slug ? (@.${JSON.stringify(locale)} == ${JSON.stringify(text)})`],
    );
    if (found.rows.length > 0) throw duplicateField('slug', text);
  }
}

/** The reference's ShoppingListsConfiguration default, for projects that never set one. */
const DEFAULT_DELETE_DAYS = 360;
const MAX_DELETE_DAYS = 365_250;

function projectDeleteDays(project: Project): number {
  const configuration = project.shoppingLists as { deleteDaysAfterLastModification?: unknown } | undefined;
  const days = configuration?.deleteDaysAfterLastModification;
  return typeof days === 'number' && Number.isInteger(days) ? days : DEFAULT_DELETE_DAYS;
}

/**
 * `deleteDaysAfterLastModification` of a draft or setDeleteDaysAfterLastModification (1 to 365250);
 * absent → the project's `shoppingLists` configuration ("If not set, the default value configured
 * in the Project is used"), stored on the list so that the retention sweep reads one field.
 */
export function deleteDays(value: unknown, project: Project): number {
  if (value === undefined || value === null) return projectDeleteDays(project);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DELETE_DAYS) {
    const field = 'deleteDaysAfterLastModification';
    throw invalidInput(`'${field}' must be an integer from 1 to ${MAX_DELETE_DAYS} (days).`, { field, invalidValue: value });
  }
  return value;
}

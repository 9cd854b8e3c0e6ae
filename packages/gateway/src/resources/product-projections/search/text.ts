import { invalidInput } from '@herald/model';
import type { ProductProjection } from '../../products/projection.js';

/**
 * Full-text search (`text.{locale}`): the text and the product's `name`, `description` and
 * `searchKeywords` in that locale are split into lower-case words (letters and digits); a product
 * matches when every word of the text is one of its words. The reference analyses per language;
 * Herald's analysis is the same for every language and has no stemming. `fuzzy` lets a word
 * differ by up to `fuzzyLevel` edits (default from the text's length, as the reference states:
 * 0 for 1–2 characters, 1 for 3–5, 2 above). The score weighs name above keywords above
 * description, and an exact word above a fuzzy one. Only the first 256 characters of the text
 * are searched (the reference's limit).
 */
export interface TextQuery {
  locale: string;
  words: string[];
  /** Edits allowed per word; 0 without `fuzzy`. */
  fuzzyLevel: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
const FIELD_WEIGHTS = { name: 3, searchKeywords: 2, description: 1 } as const;

export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** The default fuzzy level of a text (resources/product-projections-search.raml `fuzzyLevel`). */
export function defaultFuzzyLevel(text: string): number {
  const length = text.trim().length;
  return length <= 2 ? 0 : length <= 5 ? 1 : 2;
}

export function textQuery(locale: string, raw: string, fuzzy: boolean, fuzzyLevel: number | undefined): TextQuery {
  const text = raw.slice(0, 256);
  const limit = defaultFuzzyLevel(text);
  if (fuzzyLevel !== undefined && fuzzyLevel > limit) {
    throw invalidInput(`'fuzzyLevel' ${fuzzyLevel} exceeds the default level ${limit} of a text of ${text.trim().length} characters.`, {
      parameter: 'fuzzyLevel',
    });
  }
  return { locale, words: words(text), fuzzyLevel: fuzzy ? (fuzzyLevel ?? limit) : 0 };
}

/** Levenshtein distance, stopping early once it exceeds `max`. */
function withinEdits(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return false;
    previous = current;
  }
  return (previous[b.length] ?? max + 1) <= max;
}

function fieldWords(projection: ProductProjection, locale: string): Record<keyof typeof FIELD_WEIGHTS, ReadonlySet<string>> {
  const keywords = (projection.searchKeywords[locale] ?? []).map(({ text }) => text).join(' ');
  return {
    name: new Set(words(projection.name[locale] ?? '')),
    searchKeywords: new Set(words(keywords)),
    description: new Set(words(projection.description?.[locale] ?? '')),
  };
}

/** The best score one query word earns in one field's words (0: no match). */
function wordScore(word: string, field: ReadonlySet<string>, fuzzyLevel: number, weight: number): number {
  if (field.has(word)) return weight;
  if (fuzzyLevel === 0) return 0;
  for (const candidate of field) if (withinEdits(word, candidate, fuzzyLevel)) return weight / 2;
  return 0;
}

/** The product's score for the text, or undefined when it does not match. */
export function textScore(projection: ProductProjection, query: TextQuery): number | undefined {
  if (query.words.length === 0) return 0;
  const fields = fieldWords(projection, query.locale);
  let total = 0;
  for (const word of query.words) {
    const best = Math.max(
      ...Object.entries(FIELD_WEIGHTS).map(([field, weight]) => wordScore(word, fields[field as keyof typeof FIELD_WEIGHTS], query.fuzzyLevel, weight)),
    );
    if (best === 0) return undefined;
    total += best;
  }
  return total;
}

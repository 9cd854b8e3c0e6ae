import { invalidInput, type LocalizedString } from '@herald/model';
import { asDraft, localizedString } from '../shared/validation.js';

/** The reference's ShippingRateInputType: CartValue, CartScore, or CartClassification with its values. */
export type ShippingRateInputType =
  { type: 'CartValue' } | { type: 'CartScore' } | { type: 'CartClassification'; values: Array<{ key: string; label: LocalizedString }> };

const MAX_VALUES = 100;

/** CartClassification `values`: CustomFieldLocalizedEnumValue, keys unique (reference). */
function classificationValues(value: unknown): Array<{ key: string; label: LocalizedString }> {
  const field = 'shippingRateInputType.values';
  if (!Array.isArray(value) || value.length > MAX_VALUES) {
    throw invalidInput(`'${field}' must be an array of at most ${MAX_VALUES} {key, label} values.`, { field });
  }
  const keys = new Set<string>();
  return value.map((item, index) => {
    const entry = asDraft(item, `${field}[${index}]`);
    if (typeof entry.key !== 'string' || entry.key === '' || entry.key.length > 256) {
      throw invalidInput(`'${field}[${index}].key' must be a non-empty string.`, { field });
    }
    if (keys.has(entry.key)) throw invalidInput(`'${field}' contains the key '${entry.key}' twice; keys must be unique.`, { field });
    keys.add(entry.key);
    return { key: entry.key, label: localizedString(entry.label, `${field}[${index}].label`) };
  });
}

export function shippingRateInputType(value: unknown): ShippingRateInputType | undefined {
  if (value === undefined || value === null) return undefined;
  const draft = asDraft(value, 'shippingRateInputType');
  switch (draft.type) {
    case 'CartValue':
    case 'CartScore':
      return { type: draft.type };
    case 'CartClassification':
      return { type: 'CartClassification', values: classificationValues(draft.values) };
    default:
      throw invalidInput("'shippingRateInputType.type' must be CartValue, CartScore or CartClassification.", {
        field: 'shippingRateInputType.type',
        invalidValue: draft.type,
      });
  }
}

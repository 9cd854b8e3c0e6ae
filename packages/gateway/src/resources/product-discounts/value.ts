import { invalidInput, requiredField } from '@herald/model';
import { absoluteMoney, permyriadField } from '../discounts/money-values.js';
import type { ProductDiscountValue } from './product-discount.js';

/** A ProductDiscountValueDraft: `relative`, `absolute` or `external` (discriminated by `type`). */
export function productDiscountValue(value: unknown, field = 'value'): ProductDiscountValue {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidInput(`'${field}' must be a ProductDiscountValueDraft object.`, { field });
  const draft = value as Record<string, unknown>;
  switch (draft.type) {
    case 'relative':
      return { type: 'relative', permyriad: permyriadField(draft.permyriad, `${field}.permyriad`) };
    case 'absolute':
      return { type: 'absolute', money: absoluteMoney(draft.money, `${field}.money`) };
    case 'external':
      return { type: 'external' };
    default:
      throw invalidInput(`'${field}.type' must be relative, absolute or external.`, { field: `${field}.type`, invalidValue: draft.type });
  }
}

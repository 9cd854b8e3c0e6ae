import { invalidInput, invalidOperation, requiredField } from '@herald/model';
import type { CompiledPredicate } from '../../predicates/index.js';
import { compiledField } from '../discounts/predicate-field.js';
import { SELECTION_MODES, type CartDiscountTarget, type CartDiscountValue, type PatternComponent } from './cart-discount.js';
import { enumField } from './value.js';

type Draft = Record<string, unknown>;

/** A checked target and the predicates it holds (for `references`). */
export interface CheckedTarget {
  target: CartDiscountTarget;
  predicates: CompiledPredicate[];
}

function integerField(value: unknown, field: string, minimum: number, required: boolean): number | undefined {
  if (value === undefined || value === null) {
    if (required) throw requiredField(field);
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw invalidInput(`'${field}' must be an integer of at least ${minimum}.`, { field, invalidValue: value });
  }
  return value;
}

function component(value: unknown, field: string, predicates: CompiledPredicate[]): PatternComponent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidInput(`'${field}' must be a PatternComponent.`, { field });
  const draft = value as Draft;
  const type = enumField(draft.type, `${field}.type`, ['CountOnLineItemUnits', 'CountOnCustomLineItemUnits'] as const);
  const predicate = compiledField(draft.predicate, `${field}.predicate`, type === 'CountOnLineItemUnits' ? 'lineItem' : 'customLineItem');
  predicates.push(predicate);
  const checked: PatternComponent = { type, predicate: predicate.source };
  const minCount = integerField(draft.minCount, `${field}.minCount`, 0, false);
  const maxCount = integerField(draft.maxCount, `${field}.maxCount`, 1, false);
  const excludeCount = integerField(draft.excludeCount, `${field}.excludeCount`, 0, false);
  if (minCount !== undefined) checked.minCount = minCount;
  if (maxCount !== undefined) {
    // PatternComponent.maxCount: "The value must be greater than or equal to `minCount`."
    if (maxCount < (minCount ?? 1))
      throw invalidInput(`'${field}.maxCount' must not be below minCount.`, { field: `${field}.maxCount`, invalidValue: maxCount });
    checked.maxCount = maxCount;
  }
  if (excludeCount !== undefined) checked.excludeCount = excludeCount;
  return checked;
}

function pattern(value: unknown, field: string, predicates: CompiledPredicate[], nonEmpty: boolean): PatternComponent[] {
  if (value === undefined || value === null) throw requiredField(field);
  if (!Array.isArray(value) || value.length > 100) throw invalidInput(`'${field}' must be an array of PatternComponents.`, { field });
  if (nonEmpty && value.length === 0) throw invalidInput(`'${field}' must not be empty.`, { field });
  return value.map((each, index) => component(each, `${field}[${index}]`, predicates));
}

function multiBuy(draft: Draft, type: 'multiBuyLineItems' | 'multiBuyCustomLineItems', predicates: CompiledPredicate[]): CartDiscountTarget {
  const predicate = compiledField(draft.predicate, 'target.predicate', type === 'multiBuyLineItems' ? 'lineItem' : 'customLineItem');
  predicates.push(predicate);
  const triggerQuantity = integerField(draft.triggerQuantity, 'target.triggerQuantity', 2, true) as number;
  const discountedQuantity = integerField(draft.discountedQuantity, 'target.discountedQuantity', 1, true) as number;
  if (discountedQuantity > triggerQuantity) {
    throw invalidInput("'target.discountedQuantity' must be less than or equal to the triggerQuantity.", {
      field: 'target.discountedQuantity',
      invalidValue: discountedQuantity,
    });
  }
  if (draft.selectionMode === undefined || draft.selectionMode === null) throw requiredField('target.selectionMode');
  const target: CartDiscountTarget = {
    type,
    predicate: predicate.source,
    triggerQuantity,
    discountedQuantity,
    selectionMode: enumField(draft.selectionMode, 'target.selectionMode', SELECTION_MODES),
  };
  const maxOccurrence = integerField(draft.maxOccurrence, 'target.maxOccurrence', 1, false);
  if (maxOccurrence !== undefined) target.maxOccurrence = maxOccurrence;
  return target;
}

function patternTarget(draft: Draft, predicates: CompiledPredicate[]): CartDiscountTarget {
  const triggerPattern = pattern(draft.triggerPattern, 'target.triggerPattern', predicates, false);
  // CartDiscountPatternTarget.targetPattern: "This array cannot be empty."
  const targetPattern = pattern(draft.targetPattern, 'target.targetPattern', predicates, true);
  if (draft.selectionMode === undefined || draft.selectionMode === null) throw requiredField('target.selectionMode');
  const target: CartDiscountTarget = {
    type: 'pattern',
    triggerPattern,
    targetPattern,
    selectionMode: enumField(draft.selectionMode, 'target.selectionMode', SELECTION_MODES),
  };
  const maxOccurrence = integerField(draft.maxOccurrence, 'target.maxOccurrence', 1, false);
  if (maxOccurrence !== undefined) target.maxOccurrence = maxOccurrence;
  return target;
}

/** A CartDiscountTarget draft by `type`. */
export function cartDiscountTarget(value: unknown): CheckedTarget {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidInput("'target' must be a CartDiscountTarget object.", { field: 'target' });
  const draft = value as Draft;
  const predicates: CompiledPredicate[] = [];
  switch (draft.type) {
    case 'lineItems':
    case 'customLineItems': {
      const predicate = compiledField(draft.predicate, 'target.predicate', draft.type === 'lineItems' ? 'lineItem' : 'customLineItem');
      return { target: { type: draft.type, predicate: predicate.source }, predicates: [predicate] };
    }
    case 'shipping':
    case 'totalPrice':
      return { target: { type: draft.type }, predicates };
    case 'multiBuyLineItems':
    case 'multiBuyCustomLineItems':
      return { target: multiBuy(draft, draft.type, predicates), predicates };
    case 'pattern':
      return { target: patternTarget(draft, predicates), predicates };
    default:
      throw invalidInput("'target.type' must be lineItems, customLineItems, shipping, totalPrice, multiBuyLineItems, multiBuyCustomLineItems or pattern.", {
        field: 'target.type',
        invalidValue: draft.type,
      });
  }
}

const MULTI_BUY = new Set(['multiBuyLineItems', 'multiBuyCustomLineItems']);

/**
 * The value and the target fit together: a gift has no target ("Must not be set if the value is
 * giftLineItem"), every other value has one; absolute values are "not allowed for
 * MultiBuyLineItemsTarget and MultiBuyCustomLineItemsTarget"; a relative or fixed value
 * distributed (Proportionate/EvenDistribution) needs a pattern target with a non-empty
 * triggerPattern (CartDiscountChangeTargetAction: InvalidOperation otherwise); a fixed price
 * applies to items and shipping, not to the total.
 */
export function assertValueFitsTarget(value: CartDiscountValue, target: CartDiscountTarget | undefined): void {
  if (value.type === 'giftLineItem') {
    if (target !== undefined) throw invalidInput("A giftLineItem value takes no 'target'.", { field: 'target' });
    return;
  }
  if (target === undefined) throw requiredField('target');
  if (value.type === 'absolute' && MULTI_BUY.has(target.type))
    throw invalidInput(`An absolute value is not allowed for a ${target.type} target.`, { field: 'value' });
  if (value.type === 'fixed' && target.type === 'totalPrice') throw invalidInput('A fixed value is not allowed for a totalPrice target.', { field: 'value' });
  const distributed = value.applicationMode === 'ProportionateDistribution' || value.applicationMode === 'EvenDistribution';
  if (value.type !== 'absolute' && distributed && (target.type !== 'pattern' || target.triggerPattern.length === 0)) {
    throw invalidOperation(`The applicationMode ${value.applicationMode} of a ${value.type} value needs a pattern target with a non-empty triggerPattern.`);
  }
}

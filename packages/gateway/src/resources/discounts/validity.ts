import { invalidInput } from '@herald/model';
import { isDateTime } from '../shared/custom-fields.js';
import type { ActionHandlers } from '../shared/update-actions.js';

/** What the discount resources share: an optional validity period. */
export interface Validity {
  validFrom?: string;
  validUntil?: string;
}

/** A `datetime` of the reference (ISO 8601 with a zone); absent or null is none. */
export function optionalInstant(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !isDateTime(value)) {
    throw invalidInput(`'${field}' must be a DateTime such as "2024-01-31T12:00:00.000Z".`, { field, invalidValue: value });
  }
  return value;
}

/** DiscountCodeDraft.validFrom: "Must be earlier than `validUntil`"; the discounts follow the same rule. */
export function assertValidityOrder(validity: Validity): void {
  const { validFrom, validUntil } = validity;
  if (validFrom !== undefined && validUntil !== undefined && Date.parse(validFrom) >= Date.parse(validUntil)) {
    throw invalidInput("'validFrom' must be earlier than 'validUntil'.", { field: 'validFrom', invalidValue: validFrom });
  }
}

/** The validity fields of a draft, checked. */
export function validityFromDraft(draft: Record<string, unknown>): Validity {
  const validity: Validity = {};
  const validFrom = optionalInstant(draft.validFrom, 'validFrom');
  const validUntil = optionalInstant(draft.validUntil, 'validUntil');
  if (validFrom !== undefined) validity.validFrom = validFrom;
  if (validUntil !== undefined) validity.validUntil = validUntil;
  assertValidityOrder(validity);
  return validity;
}

function assign(doc: Validity, bound: keyof Validity, value: string | undefined): void {
  if (value === undefined) delete doc[bound];
  else doc[bound] = value;
}

/** Whether `now` lies in the period (bounds inclusive of validFrom, exclusive of validUntil). */
export function isValidAt(validity: Validity, now: Date): boolean {
  const time = now.getTime();
  if (validity.validFrom !== undefined && Date.parse(validity.validFrom) > time) return false;
  if (validity.validUntil !== undefined && Date.parse(validity.validUntil) <= time) return false;
  return true;
}

/** setValidFrom, setValidUntil and setValidFromAndUntil (absent values remove the bound); no messages. */
export function validityActions<D extends Validity>(): ActionHandlers<D> {
  return {
    setValidFrom(doc, action) {
      assign(doc, 'validFrom', optionalInstant(action.validFrom, 'validFrom'));
      assertValidityOrder(doc);
    },
    setValidUntil(doc, action) {
      assign(doc, 'validUntil', optionalInstant(action.validUntil, 'validUntil'));
      assertValidityOrder(doc);
    },
    setValidFromAndUntil(doc, action) {
      assign(doc, 'validFrom', optionalInstant(action.validFrom, 'validFrom'));
      assign(doc, 'validUntil', optionalInstant(action.validUntil, 'validUntil'));
      assertValidityOrder(doc);
    },
  };
}

import type { Project } from '@herald/store';
import { businessUnitConfiguration } from '../business-units/project-settings.js';

/*
 * The configurations the reference's Project type requires (types/project/Project.raml:
 * `messages`, `carts`, `inventory`, `discounts`), with the reference's defaults for projects whose
 * document does not hold them yet. Herald keeps each in the project document under the field name
 * the reference gives it.
 */

export const ROUNDING_MODES = ['HalfEven', 'HalfUp', 'HalfDown'] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

/** The reference's CartsConfiguration defaults. */
const CARTS_DEFAULTS = {
  deleteDaysAfterLastModification: 90,
  countryTaxRateFallbackEnabled: false,
  priceRoundingMode: 'HalfEven',
  taxRoundingMode: 'HalfEven',
};
/** InventoryConfiguration: expired reservations are released unless set otherwise. */
const INVENTORY_DEFAULTS = { releaseExpiredReservations: true };
/** DiscountsConfiguration: Product and Cart Discounts stack, the platform's behaviour before the setting. */
const DISCOUNTS_DEFAULTS = { discountCombinationMode: 'Stacking' };

function stored(project: Project, field: string): Record<string, unknown> {
  const value = project[field];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A project configuration object as stored, for an action to change (never undefined). */
export function configurationOf(project: Project, field: string): Record<string, unknown> {
  return { ...stored(project, field) };
}

/** The project as answered: every configuration the reference requires, with its defaults. */
export function presentProject(project: Project): Project {
  return {
    ...project,
    carts: { ...CARTS_DEFAULTS, ...stored(project, 'carts') } as Project['carts'],
    inventory: { ...INVENTORY_DEFAULTS, ...stored(project, 'inventory') },
    discounts: { ...DISCOUNTS_DEFAULTS, ...stored(project, 'discounts') },
    businessUnits: { ...stored(project, 'businessUnits'), ...businessUnitConfiguration(project) },
  };
}

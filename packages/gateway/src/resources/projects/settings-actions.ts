import { invalidInput } from '@herald/model';
import type { Project } from '@herald/store';
import type { UpdateAction } from '../shared/update-actions.js';
import { asDraft } from '../shared/validation.js';
import { configurationOf, ROUNDING_MODES, type RoundingMode } from './configuration.js';
import { codeList, isCountryCode, isCurrencyCode, isLanguageTag } from './iso-codes.js';
import type { ProjectActions } from './routes.js';
import { shippingRateInputType } from './shipping-rate-input-type.js';

/*
 * The reference's project update actions on the fields Herald's Project has
 * (types/project/updates/*.raml). Feature modules contribute the others (messages, carts,
 * external OAuth, business units, environment); theirs take precedence.
 */

const MAX_DAYS = 365_250;
const MAX_RESERVATION_MINUTES = 44_640;

function oneOf<T extends string>(values: readonly T[], value: unknown, field: string): T {
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw invalidInput(`'${field}' must be one of ${values.join(', ')}.`, { field, invalidValue: value });
  }
  return value as T;
}

function booleanOf(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw invalidInput(`'${field}' must be a boolean.`, { field, invalidValue: value });
  return value;
}

function wholeNumber(value: unknown, field: string, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw invalidInput(`'${field}' must be an integer from 1 to ${max}.`, { field, invalidValue: value });
  }
  return value;
}

/** Sets one field of a configuration object of the project (`carts`, `inventory`, …). */
function setIn(project: Project, configuration: string, field: string, value: unknown): void {
  const next = configurationOf(project, configuration);
  if (value === undefined) delete next[field];
  else next[field] = value;
  project[configuration] = next;
}

function roundingModeAction(field: 'priceRoundingMode' | 'taxRoundingMode') {
  return (project: Project, action: UpdateAction): void => {
    setIn(project, 'carts', field, oneOf<RoundingMode>(ROUNDING_MODES, action[field], field));
  };
}

export const projectSettingsActions: ProjectActions = {
  changeName(project, action) {
    if (typeof action.name !== 'string' || action.name.trim() === '' || action.name.length > 256) {
      throw invalidInput("'name' must be a non-empty string of at most 256 characters.", { field: 'name' });
    }
    project.name = action.name;
  },
  changeCountries(project, action) {
    project.countries = codeList(action.countries, 'countries', isCountryCode, 'ISO 3166-1 alpha-2 country codes');
  },
  /** The reference: "A Project must have at least one currency" (and language). */
  changeCurrencies(project, action) {
    const currencies = codeList(action.currencies, 'currencies', isCurrencyCode, 'ISO 4217 currency codes');
    if (currencies.length === 0) throw invalidInput('A project must have at least one currency.', { field: 'currencies' });
    project.currencies = currencies;
  },
  changeLanguages(project, action) {
    const languages = codeList(action.languages, 'languages', isLanguageTag, 'IETF language tags');
    if (languages.length === 0) throw invalidInput('A project must have at least one language.', { field: 'languages' });
    project.languages = languages;
  },
  changeCountryTaxRateFallbackEnabled(project, action) {
    setIn(project, 'carts', 'countryTaxRateFallbackEnabled', booleanOf(action.countryTaxRateFallbackEnabled ?? false, 'countryTaxRateFallbackEnabled'));
  },
  changePriceRoundingMode: roundingModeAction('priceRoundingMode'),
  changeTaxRoundingMode: roundingModeAction('taxRoundingMode'),
  /** Absent removes the setting (the action's `shippingRateInputType` is optional). */
  setShippingRateInputType(project, action) {
    const type = shippingRateInputType(action.shippingRateInputType);
    if (type === undefined) delete project.shippingRateInputType;
    else project.shippingRateInputType = type;
  },
  changeShoppingListsConfiguration(project, action) {
    const configuration = asDraft(action.shoppingListsConfiguration ?? {}, 'shoppingListsConfiguration');
    const days = configuration.deleteDaysAfterLastModification ?? 360;
    project.shoppingLists = { deleteDaysAfterLastModification: wholeNumber(days, 'shoppingListsConfiguration.deleteDaysAfterLastModification', MAX_DAYS) };
  },
  setDiscountsConfiguration(project, action) {
    const configuration = asDraft(action.discountsConfiguration, 'discountsConfiguration');
    const mode = oneOf(['BestDeal', 'Stacking'], configuration.discountCombinationMode, 'discountsConfiguration.discountCombinationMode');
    project.discounts = { discountCombinationMode: mode };
  },
  setReservationExpirationInMinutes(project, action) {
    const minutes = action.reservationExpirationInMinutes;
    const value = minutes === undefined || minutes === null ? undefined : wholeNumber(minutes, 'reservationExpirationInMinutes', MAX_RESERVATION_MINUTES);
    setIn(project, 'inventory', 'reservationExpirationInMinutes', value);
  },
  setReleaseExpiredReservations(project, action) {
    setIn(project, 'inventory', 'releaseExpiredReservations', booleanOf(action.releaseExpiredReservations, 'releaseExpiredReservations'));
  },
  setProductCatalogModel(project, action) {
    project.productCatalogModel = oneOf(['Classic', 'Modular'], action.productCatalogModel, 'productCatalogModel');
  },
  /** Deprecated in the reference in favour of changeMessagesConfiguration; the retention stays. */
  changeMessagesEnabled(project, action) {
    project.messages = { ...project.messages, enabled: booleanOf(action.messagesEnabled, 'messagesEnabled') };
  },
};

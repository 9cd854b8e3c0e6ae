import type { BaseResource, CustomFields, LocalizedString, Reference } from '@herald/model';

/** The reference's StoreCountry: `{code}`, an ISO 3166-1 alpha-2 code. */
export interface StoreCountry {
  code: string;
}

/** The reference's ProductSelectionSetting. */
export interface ProductSelectionSetting {
  productSelection: Reference<'product-selection'>;
  active: boolean;
}

/** The reference's Storefront: customer-facing URLs, each present only when set. */
export type Storefront = Partial<Record<StorefrontField, string>>;

export const STOREFRONT_FIELDS = [
  'checkoutUrlTemplate',
  'orderUrlTemplate',
  'termsOfServiceUrl',
  'privacyPolicyUrl',
  'refundPolicyUrl',
  'shippingPolicyUrl',
  'cookiePolicyUrl',
  'imprintUrl',
  'faqUrl',
  'contactUrl',
] as const;
export type StorefrontField = (typeof STOREFRONT_FIELDS)[number];

/**
 * A Store (§4.4 template resource). `countries`, `distributionChannels`, `supplyChannels` and
 * `productSelections` are required by the reference's Store type. The channel lists hold Channels
 * with the role each needs (channels.ts); `productSelections` decide which products the Store
 * offers (product-selections.ts, product-selections/availability.ts).
 */
export interface Store extends BaseResource {
  key: string;
  name?: LocalizedString;
  languages: string[];
  countries: StoreCountry[];
  distributionChannels: Array<Reference<'channel'>>;
  supplyChannels: Array<Reference<'channel'>>;
  productSelections: ProductSelectionSetting[];
  storefront?: Storefront;
  custom?: CustomFields;
}

/**
 * The Store with every required field, for documents stored before the field existed: a Store
 * written by an older Herald has no `countries` or channel lists, which meant "none".
 */
export function withStoreDefaults(store: Store): Store {
  const stored = store as Partial<Store> & BaseResource & { key: string };
  return {
    ...store,
    languages: stored.languages ?? [],
    countries: stored.countries ?? [],
    distributionChannels: stored.distributionChannels ?? [],
    supplyChannels: stored.supplyChannels ?? [],
    productSelections: stored.productSelections ?? [],
  };
}

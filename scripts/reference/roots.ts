/**
 * The types the conformance checks start from: every resource Herald serves, its paged query
 * response, what its messages and subscription deliveries are, and the message types of the
 * resources Herald emits messages for. The generator vendors these and all they refer to.
 */
export const RESOURCE_ROOTS = [
  'ApiClient',
  'ApiClientPagedQueryResponse',
  'AssociateRole',
  'AssociateRolePagedQueryResponse',
  'BusinessUnit',
  'BusinessUnitPagedQueryResponse',
  'Cart',
  'CartPagedQueryResponse',
  'Category',
  'CategoryPagedQueryResponse',
  'Channel',
  'ChannelPagedQueryResponse',
  'Customer',
  'CustomObject',
  'CustomObjectPagedQueryResponse',
  'CustomerGroup',
  'CustomerGroupPagedQueryResponse',
  'CustomerPagedQueryResponse',
  'CustomerSignInResult',
  'InventoryEntry',
  'InventoryPagedQueryResponse',
  'Message',
  'MessagePagedQueryResponse',
  'Order',
  'OrderPagedQueryResponse',
  'Payment',
  'PaymentPagedQueryResponse',
  'ProductType',
  'ProductTypePagedQueryResponse',
  'Product',
  'ProductPagedQueryResponse',
  'Project',
  'QuoteRequest',
  'QuoteRequestPagedQueryResponse',
  'Quote',
  'QuotePagedQueryResponse',
  'ShippingMethod',
  'ShippingMethodPagedQueryResponse',
  'StagedQuote',
  'StagedQuotePagedQueryResponse',
  'StandalonePrice',
  'StandalonePricePagedQueryResponse',
  'State',
  'StatePagedQueryResponse',
  'Store',
  'StorePagedQueryResponse',
  'Subscription',
  'SubscriptionPagedQueryResponse',
  'TaxCategory',
  'TaxCategoryPagedQueryResponse',
  'Type',
  'TypePagedQueryResponse',
  'Zone',
  'ZonePagedQueryResponse',
  // The Platform format's payloads and the CloudEvents envelope (spec §6.2).
  'DeliveryPayload',
  'CloudEventsPayload',
] as const;

/**
 * Message subtypes are vendored for the resources Herald records messages about; a message type
 * outside these is still known to be legal (Message lists every value) but is not checked field
 * by field until its prefix is added here.
 */
export const MESSAGE_PREFIXES = [
  'AssociateRole',
  'BusinessUnit',
  'Cart',
  'Category',
  'Customer',
  'InventoryEntry',
  'Payment',
  'Product',
  'QuoteRequest',
  'StandalonePrice',
  'Store',
] as const;

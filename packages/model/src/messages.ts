import type { Initiator, Reference, UserProvidedIdentifiers } from './references.js';

/**
 * A message as stored and served by the Messages API (§6.1, §6.2): common fields plus the
 * payload fields of its `type`.
 */
export interface Message {
  id: string;
  version: number;
  sequenceNumber: number;
  resource: Reference;
  resourceVersion: number;
  resourceUserProvidedIdentifiers?: UserProvidedIdentifiers;
  type: string;
  createdAt: string;
  lastModifiedAt: string;
  createdBy?: Initiator;
  lastModifiedBy?: Initiator;
  [payloadField: string]: unknown;
}

/** The payload part of a message: its `type` and the type-specific fields. */
export interface MessagePayload {
  type: string;
  [payloadField: string]: unknown;
}

/** Message types Herald knows per resource type; subscriptions validate `types` against this. */
export const MESSAGE_TYPES: Readonly<Record<string, readonly string[]>> = {
  // Associate roles (reference: types/message/AssociateRole*; it has no custom field messages for them).
  'associate-role': [
    'AssociateRoleCreated',
    'AssociateRoleDeleted',
    'AssociateRoleNameSet',
    'AssociateRoleBuyerAssignableChanged',
    'AssociateRolePermissionAdded',
    'AssociateRolePermissionRemoved',
    'AssociateRolePermissionsSet',
  ],
  // Product selections (reference: types/message/ProductSelection*; none for changeName, setKey, custom fields).
  'product-selection': [
    'ProductSelectionCreated',
    'ProductSelectionDeleted',
    'ProductSelectionProductAdded',
    'ProductSelectionProductExcluded',
    'ProductSelectionProductRemoved',
    'ProductSelectionVariantExclusionChanged',
    'ProductSelectionVariantSelectionChanged',
  ],
  // Categories (reference: types/message/Category*; it has no other Category messages).
  category: ['CategoryCreated', 'CategorySlugChanged'],
  // Inventory entries (reference: types/message/InventoryEntry*; no custom field messages).
  'inventory-entry': [
    'InventoryEntryCreated',
    'InventoryEntryDeleted',
    'InventoryEntryQuantitySet',
    'InventoryEntryOutOfStock',
    'InventoryEntryReorderPoint',
    'InventoryEntrySafetyStock',
    'InventoryEntryReservationExpirationInMinutesSet',
  ],
  // Standalone prices (reference: types/message/StandalonePrice*; no custom field messages).
  // StandalonePriceDiscountSet: written when a product discount (or the price) changes the price's
  // platform `discounted` (gateway standalone-prices/platform-discount.ts).
  'standalone-price': [
    'StandalonePriceCreated',
    'StandalonePriceDeleted',
    'StandalonePriceValueChanged',
    'StandalonePriceDiscountSet',
    'StandalonePriceExternalDiscountSet',
    'StandalonePriceKeySet',
    'StandalonePriceStagedChangesApplied',
    'StandalonePriceStagedChangesRemoved',
    'StandalonePriceTierAdded',
    'StandalonePriceTierRemoved',
    'StandalonePriceTiersSet',
    'StandalonePriceValidFromAndUntilSet',
    'StandalonePriceValidFromSet',
    'StandalonePriceValidUntilSet',
    'StandalonePriceActiveChanged',
  ],
  'business-unit': [
    'BusinessUnitCreated',
    'BusinessUnitDeleted',
    'BusinessUnitNameChanged',
    'BusinessUnitContactEmailSet',
    'BusinessUnitParentChanged',
    'BusinessUnitStatusChanged',
    'BusinessUnitAddressAdded',
    'BusinessUnitAddressChanged',
    'BusinessUnitAddressRemoved',
    'BusinessUnitBillingAddressAdded',
    'BusinessUnitBillingAddressRemoved',
    'BusinessUnitShippingAddressAdded',
    'BusinessUnitShippingAddressRemoved',
    'BusinessUnitDefaultBillingAddressSet',
    'BusinessUnitDefaultShippingAddressSet',
    'BusinessUnitAssociateAdded',
    'BusinessUnitAssociateChanged',
    'BusinessUnitAssociateRemoved',
    'BusinessUnitAssociatesSet',
    'BusinessUnitStoreAdded',
    'BusinessUnitStoreRemoved',
    'BusinessUnitStoresSet',
    'BusinessUnitStoreModeChanged',
    'BusinessUnitAssociateModeChanged',
    'BusinessUnitApprovalRuleModeChanged',
    'BusinessUnitAddressCustomFieldAdded',
    'BusinessUnitAddressCustomFieldChanged',
    'BusinessUnitAddressCustomFieldRemoved',
    'BusinessUnitAddressCustomTypeSet',
    'BusinessUnitAddressCustomTypeRemoved',
    'BusinessUnitCustomFieldAdded',
    'BusinessUnitCustomFieldChanged',
    'BusinessUnitCustomFieldRemoved',
    'BusinessUnitCustomTypeSet',
    'BusinessUnitCustomTypeRemoved',
    'BusinessUnitCustomerGroupAssignmentAdded',
    'BusinessUnitCustomerGroupAssignmentRemoved',
    'BusinessUnitCustomerGroupAssignmentsSet',
    'BusinessUnitTypeSet',
  ],
  'quote-request': ['QuoteRequestCreated', 'QuoteRequestStateChanged', 'QuoteRequestStateTransition', 'QuoteRequestDeleted', 'QuoteRequestCustomerChanged'],
  customer: [
    'CustomerCreated',
    'CustomerDeleted',
    'CustomerEmailChanged',
    'CustomerFirstNameSet',
    'CustomerLastNameSet',
    'CustomerCustomFieldAdded',
    'CustomerCustomFieldChanged',
    'CustomerCustomFieldRemoved',
    'CustomerCustomTypeSet',
    'CustomerCustomTypeRemoved',
    // Address, name and store actions (reference: types/message/Customer*MessagePayload).
    'CustomerAddressAdded',
    'CustomerAddressChanged',
    'CustomerAddressRemoved',
    'CustomerShippingAddressAdded',
    'CustomerShippingAddressRemoved',
    'CustomerBillingAddressAdded',
    'CustomerBillingAddressRemoved',
    'CustomerDefaultShippingAddressSet',
    'CustomerDefaultBillingAddressSet',
    'CustomerAddressCustomFieldAdded',
    'CustomerAddressCustomFieldChanged',
    'CustomerAddressCustomFieldRemoved',
    'CustomerAddressCustomTypeSet',
    'CustomerAddressCustomTypeRemoved',
    'CustomerTitleSet',
    'CustomerCompanyNameSet',
    'CustomerDateOfBirthSet',
    'CustomerExternalIdSet',
    'CustomerStoresSet',
    'CustomerGroupSet',
    // Customer group assignments (reference: types/message/CustomerGroupAssignment{Added,Removed,sSet}).
    'CustomerGroupAssignmentAdded',
    'CustomerGroupAssignmentRemoved',
    'CustomerGroupAssignmentsSet',
    // E-mail verification and password reset (reference: types/message/CustomerEmailVerified, CustomerPasswordUpdated).
    'CustomerEmailVerified',
    'CustomerPasswordUpdated',
  ],
  // Customer tokens (reference: types/message/Customer{Email,Password}TokenCreated; their resource is the token).
  'customer-email-token': ['CustomerEmailTokenCreated'],
  'customer-password-token': ['CustomerPasswordTokenCreated'],
  store: [
    'StoreCreated',
    'StoreDeleted',
    'StoreNameSet',
    'StoreLanguagesChanged',
    'StoreCountriesChanged',
    'StoreCheckoutUrlTemplateSet',
    'StoreOrderUrlTemplateSet',
    'StoreTermsOfServiceUrlSet',
    'StorePrivacyPolicyUrlSet',
    'StoreRefundPolicyUrlSet',
    'StoreShippingPolicyUrlSet',
    'StoreCookiePolicyUrlSet',
    'StoreImprintUrlSet',
    'StoreFaqUrlSet',
    'StoreContactUrlSet',
    'StoreDistributionChannelsChanged',
    'StoreSupplyChannelsChanged',
  ],
  // Staged quotes, quotes and orders (reference: types/message/StagedQuote*, Quote*, Order*).
  'staged-quote': [
    'StagedQuoteCreated',
    'StagedQuoteDeleted',
    'StagedQuoteStateChanged',
    'StagedQuoteStateTransition',
    'StagedQuoteSellerCommentSet',
    'StagedQuoteValidToSet',
  ],
  quote: ['QuoteCreated', 'QuoteDeleted', 'QuoteStateChanged', 'QuoteStateTransition', 'QuoteRenegotiationRequested', 'QuoteCustomerChanged'],
  order: [
    'OrderCreated',
    'OrderDeleted',
    'OrderStateChanged',
    'OrderShipmentStateChanged',
    'OrderPaymentStateChanged',
    'OrderStateTransition',
    'OrderShippingAddressSet',
    'OrderBillingAddressSet',
    'OrderCustomerEmailSet',
    'OrderPurchaseOrderNumberSet',
    'OrderCustomFieldAdded',
    'OrderCustomFieldChanged',
    'OrderCustomFieldRemoved',
    'OrderCustomTypeSet',
    'OrderCustomTypeRemoved',
    'OrderCustomerSet',
    'OrderStoreSet',
    'OrderBusinessUnitSet',
    'OrderEstimatedDeliverySet',
    'LineItemStateTransition',
    'CustomLineItemStateTransition',
    'DeliveryAdded',
    'DeliveryRemoved',
    'DeliveryAddressSet',
    'DeliveryItemsUpdated',
    // Custom fields of deliveries (reference: types/message/DeliveryCustom*; other parts of an order have no such messages).
    'DeliveryCustomTypeSet',
    'DeliveryCustomTypeRemoved',
    'DeliveryCustomFieldAdded',
    'DeliveryCustomFieldChanged',
    'DeliveryCustomFieldRemoved',
    'ParcelAddedToDelivery',
    'ParcelRemovedFromDelivery',
    'ParcelMeasurementsUpdated',
    'ParcelTrackingDataUpdated',
    'ParcelItemsUpdated',
    'ReturnInfoAdded',
    'ReturnInfoSet',
    'OrderReturnShipmentStateChanged',
    // Payments on orders and order edits (reference: types/message/OrderPayment{Added,Removed}, OrderEditApplied).
    'OrderPaymentAdded',
    'OrderPaymentRemoved',
    'OrderEditApplied',
    // Staged cart actions of order edits (reference: types/message/Order{LineItem,CustomLineItem,DiscountCode,Shipping…}*).
    'OrderLineItemAdded',
    'OrderLineItemRemoved',
    'OrderLineItemDiscountSet',
    'OrderLineItemDistributionChannelSet',
    'OrderCustomLineItemAdded',
    'OrderCustomLineItemRemoved',
    'OrderCustomLineItemQuantityChanged',
    'OrderCustomLineItemDiscountSet',
    'OrderDiscountCodeAdded',
    'OrderDiscountCodeRemoved',
    'OrderDiscountCodeStateSet',
    'OrderShippingInfoSet',
    'OrderShippingRateInputSet',
    'OrderCustomerGroupSet',
  ],
  // The reference has no OrderEdit messages (an applied edit's message is the order's OrderEditApplied).
  'order-edit': [],
  cart: ['CartPurchaseOrderNumberSet', 'CartFrozen', 'CartUnfrozen', 'CartLocked', 'CartUnlocked', 'CartEstimatedDeliverySet'],
  state: [],
  type: [],
  subscription: [],
  // Customer groups (reference: types/message/CustomerGroupCustom*; it has no others for them).
  'customer-group': [
    'CustomerGroupCustomFieldAdded',
    'CustomerGroupCustomFieldChanged',
    'CustomerGroupCustomFieldRemoved',
    'CustomerGroupCustomTypeSet',
    'CustomerGroupCustomTypeRemoved',
  ],
  // The reference has no Channel messages.
  channel: [],
  // Products (reference: types/message/Product*, those of the actions Herald has).
  product: [
    'ProductCreated',
    'ProductDeleted',
    'ProductPublished',
    'ProductUnpublished',
    'ProductRevertedStagedChanges',
    'ProductSlugChanged',
    'ProductVariantAdded',
    'ProductVariantDeleted',
    'ProductPriceAdded',
    'ProductPriceChanged',
    'ProductPriceRemoved',
    'ProductPricesSet',
    'ProductAddedToCategory',
    'ProductRemovedFromCategory',
    'ProductStateTransition',
    'ProductImageAdded',
    'ProductPriceKeySet',
    'ProductPriceModeSet',
    'ProductPriceExternalDiscountSet',
    'ProductPriceCustomFieldsSet',
    'ProductPriceCustomFieldsRemoved',
    'ProductPriceCustomFieldAdded',
    'ProductPriceCustomFieldChanged',
    'ProductPriceCustomFieldRemoved',
  ],
  // Payments (reference: types/message/Payment*; none for deleting a payment or its own custom fields).
  payment: [
    'PaymentCreated',
    'PaymentTransactionAdded',
    'PaymentTransactionStateChanged',
    'PaymentTransactionInterfaceIdSet',
    'PaymentInteractionAdded',
    'PaymentInterfaceIdSet',
    'PaymentStatusInterfaceCodeSet',
    'PaymentStatusStateTransition',
    'PaymentMethodInfoInterfaceSet',
    'PaymentMethodInfoMethodSet',
    'PaymentMethodInfoNameSet',
    'PaymentMethodInfoTokenSet',
    'PaymentMethodInfoInterfaceAccountSet',
    'PaymentMethodInfoCustomTypeSet',
    'PaymentMethodInfoCustomTypeRemoved',
    'PaymentMethodInfoCustomFieldAdded',
    'PaymentMethodInfoCustomFieldChanged',
    'PaymentMethodInfoCustomFieldRemoved',
  ],
  // Shopping lists (reference: types/message/ShoppingList*; ShoppingListStoreSet has a payload type only).
  'shopping-list': ['ShoppingListLineItemAdded', 'ShoppingListLineItemRemoved'],
  // Reviews (reference: types/message/Review*).
  review: ['ReviewCreated', 'ReviewRatingSet', 'ReviewStateTransition'],
  // Discounts (reference: types/message/CartDiscount*, DiscountCode*; it has no ProductDiscount messages).
  'product-discount': [],
  'cart-discount': ['CartDiscountCreated', 'CartDiscountDeleted', 'CartDiscountStoreAdded', 'CartDiscountStoreRemoved', 'CartDiscountStoresSet'],
  'discount-code': ['DiscountCodeCreated', 'DiscountCodeDeleted', 'DiscountCodeKeySet'],
  // Discount groups (reference: types/message/DiscountGroup*).
  'discount-group': ['DiscountGroupCreated', 'DiscountGroupDeleted', 'DiscountGroupIsActiveSet', 'DiscountGroupKeySet', 'DiscountGroupSortOrderSet'],
};

export function isKnownMessageType(resourceTypeId: string, type: string): boolean {
  return MESSAGE_TYPES[resourceTypeId]?.includes(type) ?? false;
}

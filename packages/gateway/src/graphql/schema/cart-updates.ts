/**
 * The official CartUpdateAction and MyCartUpdateAction members: every REST cart action
 * (carts/actions.ts `cartActions`, `myCartActions`), each with its input type `<Verb>Cart<Subject>`
 * and the fields of the reference's Cart<Name>Action (types/cart/updates/*.raml). My Cart members
 * take the same inputs; the REST handlers apply the buyer's limits. Polymorphic drafts the
 * official schema spells as one member per variant (cart discount values and targets, price
 * tiers) are `Json` here, in the REST draft's form; ShippingRateInputDraft keeps the official
 * `{Classification: {key}}` / `{Score: {score}}` form (inputs.ts turns it into REST's).
 */
import { myCartActions } from '../../resources/carts/actions.js';

const ITEM = 'lineItemId: String\n    lineItemKey: String';
const CUSTOM_ITEM = 'customLineItemId: String\n    customLineItemKey: String';
const CUSTOM_TYPE = 'fields: [CustomFieldInput!]\n    type: ResourceIdentifierInput\n    typeKey: String\n    typeId: String';
const CUSTOM_FIELD = 'name: String!\n    value: String';
const SHIPPING_KEY = '"Required for a Multiple-mode cart."\n    shippingKey: String';

/** The enums and drafts the cart actions' fields use. */
const CART_DRAFT_TYPES = /* GraphQL */ `
  enum TaxMode {
    Platform
    External
    ExternalAmount
    Disabled
  }
  enum RoundingMode {
    HalfEven
    HalfUp
    HalfDown
  }
  enum TaxCalculationMode {
    LineItemLevel
    UnitPriceLevel
  }
  enum InventoryMode {
    None
    TrackOnly
    ReserveOnOrder
  }
  enum CustomLineItemPriceMode {
    Standard
    External
  }
  enum FreezeStrategy {
    SoftFreeze
    HardFreeze
  }
  enum PriceSelectionMode {
    Fixed
    Dynamic
  }
  input MoneyInput {
    currencyCode: Currency!
    centAmount: Long!
  }
  input LocalizedStringItemInputType {
    locale: Locale!
    value: String!
  }
  input SubRateDraft {
    name: String!
    amount: Float!
  }
  input ExternalTaxRateDraft {
    name: String!
    amount: Float
    country: Country!
    state: String
    subRates: [SubRateDraft!]
    includedInPrice: Boolean = false
  }
  input MethodExternalTaxRateDraft {
    shippingMethodKey: String!
    taxRate: ExternalTaxRateDraft
  }
  input ExternalLineItemTotalPriceDraft {
    price: MoneyInput!
    totalPrice: MoneyInput!
  }
  input ExternalTaxAmountDraft {
    totalGross: MoneyInput!
    taxRate: ExternalTaxRateDraft!
  }
  input TaxPortionDraft {
    name: String
    rate: Float!
    amount: MoneyInput!
  }
  input LineItemRecurrenceInfoDraft {
    recurrencePolicy: ResourceIdentifierInput!
    priceSelectionMode: PriceSelectionMode!
  }
  input CustomLineItemRecurrenceInfoDraft {
    recurrencePolicy: ResourceIdentifierInput!
  }
  input ClassificationShippingRateInputDraft {
    key: String!
  }
  input ScoreShippingRateInputDraft {
    score: Float!
  }
  "Exactly one member: the reference's ClassificationShippingRateInputDraft or ScoreShippingRateInputDraft."
  input ShippingRateInputDraft {
    Classification: ClassificationShippingRateInputDraft
    Score: ScoreShippingRateInputDraft
  }
  "The reference's ShippingRateDraft; tiers in the REST form ({type: CartValue|CartClassification|CartScore, …})."
  input ShippingRateDraft {
    price: MoneyInput!
    freeAbove: MoneyInput
    tiers: [Json!]
  }
  input DeliveryDraft {
    key: String
    items: [DeliveryItemDraftType!]
    parcels: [ParcelDataDraftType!]
    address: AddressInput
    custom: CustomFieldsDraft
  }
  "The reference's DirectDiscountDraft; value and target in the REST form of CartDiscountValueDraft and CartDiscountTarget."
  input DirectDiscountDraft {
    value: Json!
    target: Json
  }
`;

/** [member, input type, its fields]: one row per REST cart action. */
const CART_ACTIONS: readonly (readonly [member: string, input: string, fields: string])[] = [
  ['setBusinessUnit', 'SetCartBusinessUnit', 'businessUnit: ResourceIdentifierInput!'],
  ['setKey', 'SetCartKey', 'key: String'],
  ['setCustomerId', 'SetCartCustomerId', 'customerId: String'],
  ['setAnonymousId', 'SetCartAnonymousId', 'anonymousId: String'],
  ['setCustomerEmail', 'SetCartCustomerEmail', 'email: String'],
  ['setCustomerGroup', 'SetCartCustomerGroup', 'customerGroup: ResourceIdentifierInput'],
  ['setLocale', 'SetCartLocale', 'locale: Locale'],
  ['setCountry', 'SetCartCountry', 'country: Country'],
  ['setPurchaseOrderNumber', 'SetCartPurchaseOrderNumber', 'purchaseOrderNumber: String'],
  ['setDeleteDaysAfterLastModification', 'SetCartDeleteDaysAfterLastModification', 'deleteDaysAfterLastModification: Int'],
  ['setReservationExpirationInMinutes', 'SetCartReservationExpirationInMinutes', 'reservationExpirationInMinutes: Int'],
  ['setShippingAddress', 'SetCartShippingAddress', 'address: AddressInput'],
  ['setBillingAddress', 'SetCartBillingAddress', 'address: AddressInput'],
  ['changeTaxMode', 'ChangeCartTaxMode', 'taxMode: TaxMode!'],
  ['changeTaxRoundingMode', 'ChangeCartTaxRoundingMode', 'taxRoundingMode: RoundingMode!'],
  ['changePriceRoundingMode', 'ChangeCartPriceRoundingMode', 'priceRoundingMode: RoundingMode!'],
  ['changeTaxCalculationMode', 'ChangeCartTaxCalculationMode', 'taxCalculationMode: TaxCalculationMode!'],
  ['recalculate', 'RecalculateCart', 'updateProductData: Boolean = false'],
  ['freezeCart', 'FreezeCart', 'strategy: FreezeStrategy'],
  ['unfreezeCart', 'UnfreezeCart', '"No fields."\n    dummy: String'],
  ['lockCart', 'LockCart', '"No fields."\n    dummy: String'],
  ['unlockCart', 'UnlockCart', '"No fields."\n    dummy: String'],
  [
    'addLineItem',
    'AddCartLineItem',
    `key: String
    productId: String
    variantId: Int
    sku: String
    quantity: Long
    addedAt: DateTime
    distributionChannel: ResourceIdentifierInput
    supplyChannel: ResourceIdentifierInput
    externalPrice: MoneyInput
    externalTotalPrice: ExternalLineItemTotalPriceDraft
    externalTaxRate: ExternalTaxRateDraft
    perMethodExternalTaxRate: [MethodExternalTaxRateDraft!]
    inventoryMode: InventoryMode
    shippingDetails: ItemShippingDetailsDraftType
    recurrenceInfo: LineItemRecurrenceInfoDraft
    custom: CustomFieldsDraft`,
  ],
  [
    'removeLineItem',
    'RemoveCartLineItem',
    `${ITEM}
    quantity: Long
    externalPrice: MoneyInput
    externalTotalPrice: ExternalLineItemTotalPriceDraft
    shippingDetailsToRemove: ItemShippingDetailsDraftType`,
  ],
  [
    'changeLineItemQuantity',
    'ChangeCartLineItemQuantity',
    `${ITEM}
    quantity: Long!
    externalPrice: MoneyInput
    externalTotalPrice: ExternalLineItemTotalPriceDraft`,
  ],
  ['changeLineItemsOrder', 'ChangeCartLineItemsOrder', 'lineItemOrder: [String!]!'],
  ['setLineItemPrice', 'SetCartLineItemPrice', `${ITEM}\n    externalPrice: MoneyInput`],
  ['setLineItemTotalPrice', 'SetCartLineItemTotalPrice', `${ITEM}\n    externalTotalPrice: ExternalLineItemTotalPriceDraft`],
  ['setLineItemInventoryMode', 'SetCartLineItemInventoryMode', `${ITEM}\n    inventoryMode: InventoryMode`],
  ['setLineItemDistributionChannel', 'SetCartLineItemDistributionChannel', `${ITEM}\n    distributionChannel: ResourceIdentifierInput`],
  ['setLineItemSupplyChannel', 'SetCartLineItemSupplyChannel', `${ITEM}\n    supplyChannel: ResourceIdentifierInput`],
  ['setLineItemRecurrenceInfo', 'SetCartLineItemRecurrenceInfo', `${ITEM}\n    recurrenceInfo: LineItemRecurrenceInfoDraft`],
  ['setLineItemTaxRate', 'SetCartLineItemTaxRate', `${ITEM}\n    externalTaxRate: ExternalTaxRateDraft\n    ${SHIPPING_KEY}`],
  ['setLineItemTaxAmount', 'SetCartLineItemTaxAmount', `${ITEM}\n    externalTaxAmount: ExternalTaxAmountDraft\n    ${SHIPPING_KEY}`],
  ['setLineItemCustomType', 'SetCartLineItemCustomType', `${ITEM}\n    ${CUSTOM_TYPE}`],
  ['setLineItemCustomField', 'SetCartLineItemCustomField', `${ITEM}\n    ${CUSTOM_FIELD}`],
  ['setLineItemShippingDetails', 'SetCartLineItemShippingDetails', `${ITEM}\n    shippingDetails: ItemShippingDetailsDraftType`],
  ['applyDeltaToLineItemShippingDetailsTargets', 'ApplyCartDeltaToLineItemShippingDetailsTargets', `${ITEM}\n    targetsDelta: [ShippingTargetDraftType!]!`],
  [
    'addCustomLineItem',
    'AddCartCustomLineItem',
    `key: String
    name: [LocalizedStringItemInputType!]!
    slug: String!
    money: MoneyInput!
    quantity: Long
    taxCategory: ResourceIdentifierInput
    externalTaxRate: ExternalTaxRateDraft
    priceMode: CustomLineItemPriceMode
    shippingDetails: ItemShippingDetailsDraftType
    recurrenceInfo: CustomLineItemRecurrenceInfoDraft
    custom: CustomFieldsDraft`,
  ],
  ['removeCustomLineItem', 'RemoveCartCustomLineItem', CUSTOM_ITEM],
  ['changeCustomLineItemMoney', 'ChangeCartCustomLineItemMoney', `${CUSTOM_ITEM}\n    money: MoneyInput!`],
  ['changeCustomLineItemQuantity', 'ChangeCartCustomLineItemQuantity', `${CUSTOM_ITEM}\n    quantity: Long!`],
  ['changeCustomLineItemPriceMode', 'ChangeCartCustomLineItemPriceMode', `${CUSTOM_ITEM}\n    mode: CustomLineItemPriceMode!`],
  ['setCustomLineItemRecurrenceInfo', 'SetCartCustomLineItemRecurrenceInfo', `${CUSTOM_ITEM}\n    recurrenceInfo: CustomLineItemRecurrenceInfoDraft`],
  ['setCustomLineItemTaxRate', 'SetCartCustomLineItemTaxRate', `${CUSTOM_ITEM}\n    externalTaxRate: ExternalTaxRateDraft\n    ${SHIPPING_KEY}`],
  ['setCustomLineItemTaxAmount', 'SetCartCustomLineItemTaxAmount', `${CUSTOM_ITEM}\n    externalTaxAmount: ExternalTaxAmountDraft\n    ${SHIPPING_KEY}`],
  ['setCustomLineItemCustomType', 'SetCartCustomLineItemCustomType', `${CUSTOM_ITEM}\n    ${CUSTOM_TYPE}`],
  ['setCustomLineItemCustomField', 'SetCartCustomLineItemCustomField', `${CUSTOM_ITEM}\n    ${CUSTOM_FIELD}`],
  ['setCustomLineItemShippingDetails', 'SetCartCustomLineItemShippingDetails', `${CUSTOM_ITEM}\n    shippingDetails: ItemShippingDetailsDraftType`],
  [
    'applyDeltaToCustomLineItemShippingDetailsTargets',
    'ApplyCartDeltaToCustomLineItemShippingDetailsTargets',
    `${CUSTOM_ITEM}\n    targetsDelta: [ShippingTargetDraftType!]!`,
  ],
  [
    'setShippingMethod',
    'SetCartShippingMethod',
    'shippingMethod: ResourceIdentifierInput\n    externalTaxRate: ExternalTaxRateDraft\n    estimatedDelivery: EstimatedDeliveryDraft',
  ],
  [
    'setCustomShippingMethod',
    'SetCartCustomShippingMethod',
    `shippingMethodName: String!
    shippingRate: ShippingRateDraft!
    taxCategory: ResourceIdentifierInput
    externalTaxRate: ExternalTaxRateDraft
    estimatedDelivery: EstimatedDeliveryDraft
    custom: CustomFieldsDraft`,
  ],
  [
    'addShippingMethod',
    'AddCartShippingMethod',
    `shippingKey: String!
    shippingMethod: ResourceIdentifierInput!
    shippingAddress: AddressInput!
    shippingRateInput: ShippingRateInputDraft
    externalTaxRate: ExternalTaxRateDraft
    deliveries: [DeliveryDraft!]
    custom: CustomFieldsDraft
    estimatedDelivery: EstimatedDeliveryDraft`,
  ],
  [
    'addCustomShippingMethod',
    'AddCartCustomShippingMethod',
    `shippingKey: String!
    shippingMethodName: String!
    shippingAddress: AddressInput!
    shippingRate: ShippingRateDraft!
    shippingRateInput: ShippingRateInputDraft
    taxCategory: ResourceIdentifierInput
    externalTaxRate: ExternalTaxRateDraft
    deliveries: [DeliveryDraft!]
    custom: CustomFieldsDraft`,
  ],
  ['removeShippingMethod', 'RemoveCartShippingMethod', 'shippingKey: String!'],
  ['setShippingRateInput', 'SetCartShippingRateInput', 'shippingRateInput: ShippingRateInputDraft'],
  ['setShippingMethodTaxRate', 'SetCartShippingMethodTaxRate', `${SHIPPING_KEY}\n    externalTaxRate: ExternalTaxRateDraft`],
  ['setShippingMethodTaxAmount', 'SetCartShippingMethodTaxAmount', `${SHIPPING_KEY}\n    externalTaxAmount: ExternalTaxAmountDraft`],
  ['setEstimatedDelivery', 'SetCartEstimatedDelivery', `${SHIPPING_KEY}\n    estimatedDelivery: EstimatedDeliveryDraft`],
  ['setCartTotalTax', 'SetCartTotalTax', 'externalTotalGross: MoneyInput!\n    externalTaxPortions: [TaxPortionDraft!]'],
  ['addDiscountCode', 'AddCartDiscountCode', 'code: String!'],
  ['removeDiscountCode', 'RemoveCartDiscountCode', 'discountCode: ReferenceInput!'],
  ['setDirectDiscounts', 'SetCartDirectDiscounts', 'discounts: [DirectDiscountDraft!]!'],
  ['addPayment', 'AddCartPayment', 'payment: ResourceIdentifierInput!'],
  ['removePayment', 'RemoveCartPayment', 'payment: ResourceIdentifierInput!'],
  [
    'addShoppingList',
    'AddCartShoppingList',
    'shoppingList: ResourceIdentifierInput!\n    distributionChannel: ResourceIdentifierInput\n    supplyChannel: ResourceIdentifierInput',
  ],
  ['addItemShippingAddress', 'AddCartItemShippingAddress', 'address: AddressInput!'],
  ['updateItemShippingAddress', 'UpdateCartItemShippingAddress', 'address: AddressInput!'],
  ['removeItemShippingAddress', 'RemoveCartItemShippingAddress', 'addressKey: String!'],
  ['setCustomType', 'SetCartCustomType', CUSTOM_TYPE],
  ['setCustomField', 'SetCartCustomField', CUSTOM_FIELD],
  ['setBillingAddressCustomType', 'SetCartBillingAddressCustomType', CUSTOM_TYPE],
  ['setBillingAddressCustomField', 'SetCartBillingAddressCustomField', CUSTOM_FIELD],
  ['setShippingAddressCustomType', 'SetCartShippingAddressCustomType', CUSTOM_TYPE],
  ['setShippingAddressCustomField', 'SetCartShippingAddressCustomField', CUSTOM_FIELD],
  ['setItemShippingAddressCustomType', 'SetCartItemShippingAddressCustomType', `addressKey: String!\n    ${CUSTOM_TYPE}`],
  ['setItemShippingAddressCustomField', 'SetCartItemShippingAddressCustomField', `addressKey: String!\n    ${CUSTOM_FIELD}`],
  ['setShippingCustomType', 'SetCartShippingCustomType', `${SHIPPING_KEY}\n    ${CUSTOM_TYPE}`],
  ['setShippingCustomField', 'SetCartShippingCustomField', `${SHIPPING_KEY}\n    ${CUSTOM_FIELD}`],
];

/** MyCartUpdateAction: the REST `/me/carts` actions (`myCartActions`, the buyer's subset), with the cart's inputs. */
const myCartMembers = (): readonly (readonly [string, string, string])[] => {
  const mine = new Set(Object.keys(myCartActions));
  return CART_ACTIONS.filter(([member]) => mine.has(member));
};

function actionInputs(): string {
  return CART_ACTIONS.map(([, input, fields]) => `  input ${input} {\n    ${fields}\n  }`).join('\n');
}

function updateAction(name: string, description: string, members: readonly (readonly [string, string, string])[]): string {
  const fields = members.map(([member, input]) => `    ${member}: ${input}`).join('\n');
  return `  "${description}"\n  input ${name} {\n${fields}\n  }`;
}

export const cartUpdateTypeDefs = [
  CART_DRAFT_TYPES,
  actionInputs(),
  updateAction('CartUpdateAction', 'Exactly one member per action.', CART_ACTIONS),
  updateAction(
    'MyCartUpdateAction',
    "Exactly one member per action; the cart must be the token's buyer's. setBusinessUnit: the acting customer must be an associate of the unit.",
    myCartMembers(),
  ),
].join('\n');

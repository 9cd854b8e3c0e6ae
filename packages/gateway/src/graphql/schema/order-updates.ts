/**
 * The official OrderUpdateAction members (every REST order action, orders/actions.ts) with their
 * input types. The reference repository holds no GraphQL SDL; the input names follow the official
 * schema's pattern `<Verb>Order<Subject>` (SetOrderStore, SetOrderDeliveryCustomType, …) and the
 * fields are the REST action's (types/order/updates/Order*Action.raml).
 */

/** Inputs of the order's parts: deliveries, parcels, returns, item states, item shipping. */
const PART_INPUTS = /* GraphQL */ `
  input DeliveryItemDraftType {
    id: String!
    quantity: Long!
  }

  input ParcelMeasurementsDraftType {
    heightInMillimeter: Int
    lengthInMillimeter: Int
    widthInMillimeter: Int
    weightInGram: Int
  }

  input TrackingDataDraftType {
    trackingId: String
    carrier: String
    provider: String
    providerTransaction: String
    isReturn: Boolean = false
  }

  input ParcelDataDraftType {
    key: String
    measurements: ParcelMeasurementsDraftType
    trackingData: TrackingDataDraftType
    items: [DeliveryItemDraftType!] = []
  }

  input ReturnItemDraftType {
    key: String
    quantity: Long!
    lineItemId: String
    customLineItemId: String
    comment: String
    shipmentState: ReturnShipmentState!
  }

  input ReturnInfoDraftType {
    items: [ReturnItemDraftType!]!
    returnDate: DateTime
    returnTrackingId: String
  }

  input ItemStateDraftType {
    quantity: Long!
    state: ReferenceInput!
  }

  input ChangeOrderState {
    orderState: OrderState!
  }
  input ChangeOrderPaymentState {
    paymentState: PaymentState!
  }
  input ChangeOrderShipmentState {
    shipmentState: ShipmentState!
  }
  input SetOrderNumber {
    orderNumber: String
  }
  input SetOrderPurchaseOrderNumber {
    purchaseOrderNumber: String
  }
  input SetOrderCustomerEmail {
    email: String
  }
  input SetOrderCustomerId {
    customerId: String
  }
  input SetOrderLocale {
    locale: Locale
  }
  input SetOrderBillingAddress {
    address: AddressInput
  }
  input SetOrderShippingAddress {
    address: AddressInput
  }
  input AddOrderDelivery {
    deliveryKey: String
    items: [DeliveryItemDraftType!] = []
    parcels: [ParcelDataDraftType!] = []
    address: AddressInput
    shippingKey: String
  }
  input RemoveOrderDelivery {
    deliveryId: String
    deliveryKey: String
  }
  input SetOrderDeliveryAddress {
    deliveryId: String
    deliveryKey: String
    address: AddressInput
  }
  input SetOrderDeliveryItems {
    deliveryId: String
    deliveryKey: String
    items: [DeliveryItemDraftType!]!
  }
  input AddOrderParcelToDelivery {
    deliveryId: String
    deliveryKey: String
    parcelKey: String
    measurements: ParcelMeasurementsDraftType
    trackingData: TrackingDataDraftType
    items: [DeliveryItemDraftType!] = []
  }
  input RemoveOrderParcelFromDelivery {
    parcelId: String
    parcelKey: String
  }
  input SetOrderParcelMeasurements {
    parcelId: String
    parcelKey: String
    measurements: ParcelMeasurementsDraftType
  }
  input SetOrderParcelTrackingData {
    parcelId: String
    parcelKey: String
    trackingData: TrackingDataDraftType
  }
  input SetOrderParcelItems {
    parcelId: String
    parcelKey: String
    items: [DeliveryItemDraftType!]!
  }
  input AddOrderReturnInfo {
    items: [ReturnItemDraftType!]!
    returnDate: DateTime
    returnTrackingId: String
  }
  input SetOrderReturnInfo {
    items: [ReturnInfoDraftType!] = []
  }
  input SetOrderReturnShipmentState {
    returnItemId: String
    returnItemKey: String
    shipmentState: ReturnShipmentState!
  }
  input SetOrderReturnPaymentState {
    returnItemId: String
    returnItemKey: String
    paymentState: ReturnPaymentState!
  }
  input TransitionOrderLineItemState {
    lineItemId: String
    lineItemKey: String
    quantity: Long!
    fromState: ResourceIdentifierInput!
    toState: ResourceIdentifierInput!
    actualTransitionDate: DateTime
  }
  input TransitionOrderCustomLineItemState {
    customLineItemId: String
    customLineItemKey: String
    quantity: Long!
    fromState: ResourceIdentifierInput!
    toState: ResourceIdentifierInput!
    actualTransitionDate: DateTime
  }
  input ImportOrderLineItemState {
    lineItemId: String
    lineItemKey: String
    state: [ItemStateDraftType!]!
  }
  input ImportOrderCustomLineItemState {
    customLineItemId: String
    customLineItemKey: String
    state: [ItemStateDraftType!]!
  }
  input UpdateOrderSyncInfo {
    channel: ResourceIdentifierInput!
    syncedAt: DateTime
    externalId: String
  }
  input ShippingTargetDraftType {
    quantity: Long!
    addressKey: String!
    shippingMethodKey: String
  }
  "The official ItemShippingDetailsDraftType's targets (Herald has no shipping methods for the other lists)."
  input ItemShippingDetailsDraftType {
    targets: [ShippingTargetDraftType!] = []
  }
  input AddOrderItemShippingAddress {
    address: AddressInput!
  }
  input RemoveOrderItemShippingAddress {
    addressKey: String!
  }
  input UpdateOrderItemShippingAddress {
    address: AddressInput!
  }
  input SetOrderLineItemShippingDetails {
    lineItemId: String
    lineItemKey: String
    shippingDetails: ItemShippingDetailsDraftType
  }
  input SetOrderCustomLineItemShippingDetails {
    customLineItemId: String
    customLineItemKey: String
    shippingDetails: ItemShippingDetailsDraftType
  }
`;

/**
 * How each customizable part of an order is named in its Set<Part>Custom{Type,Field} actions
 * (orders/part-custom-fields.ts; addresses and shipping: shared/checkout-part-custom-fields.ts).
 */
const CUSTOMIZABLE_PARTS: readonly (readonly [part: string, locator: string])[] = [
  ['Delivery', 'deliveryId: String\n    deliveryKey: String'],
  ['DeliveryAddress', 'deliveryId: String\n    deliveryKey: String'],
  ['Parcel', 'parcelId: String\n    parcelKey: String'],
  ['ReturnItem', 'returnItemId: String\n    returnItemKey: String'],
  ['LineItem', 'lineItemId: String\n    lineItemKey: String'],
  ['CustomLineItem', 'customLineItemId: String\n    customLineItemKey: String'],
  ['BillingAddress', ''],
  ['ShippingAddress', ''],
  ['ItemShippingAddress', 'addressKey: String!'],
  ['Shipping', '"Required for a Multiple-mode order."\n    shippingKey: String'],
];

/** SetOrder<Part>CustomType / SetOrder<Part>CustomField: the order-level inputs' fields plus the part's locator. */
function partCustomFieldInputs(): string {
  return CUSTOMIZABLE_PARTS.map(([part, locator]) => {
    const located = locator === '' ? '' : `\n    ${locator}`;
    return `
  input SetOrder${part}CustomType {${located}
    fields: [CustomFieldInput!]
    type: ResourceIdentifierInput
    typeKey: String
    typeId: String
  }

  input SetOrder${part}CustomField {${located}
    name: String!
    value: String
  }`;
  }).join('\n');
}

/** Inputs of the assignment, payment, estimated delivery and shipping-target delta actions. */
const OTHER_INPUTS = /* GraphQL */ `
  input AddOrderPayment {
    payment: ResourceIdentifierInput!
  }
  input RemoveOrderPayment {
    payment: ResourceIdentifierInput!
  }
  "OrderSetStoreAction: without store, removes it."
  input SetOrderStore {
    store: ResourceIdentifierInput
  }
  "OrderSetBusinessUnitAction: without businessUnit, removes it."
  input SetOrderBusinessUnit {
    businessUnit: ResourceIdentifierInput
  }
  input EstimatedDeliveryDraft {
    from: DateTime
    until: DateTime
  }
  input SetOrderEstimatedDelivery {
    "Required for a Multiple-mode order."
    shippingKey: String
    estimatedDelivery: EstimatedDeliveryDraft
  }
  "Positive or negative quantities per address."
  input ApplyOrderDeltaToLineItemShippingDetailsTargets {
    lineItemId: String
    lineItemKey: String
    targetsDelta: [ShippingTargetDraftType!]!
  }
  input ApplyOrderDeltaToCustomLineItemShippingDetailsTargets {
    customLineItemId: String
    customLineItemKey: String
    targetsDelta: [ShippingTargetDraftType!]!
  }
`;

/** OrderUpdateAction's members and their input types, in the order of the REST tables. */
const ORDER_UPDATE_MEMBERS: readonly (readonly [member: string, input: string])[] = [
  ['changeOrderState', 'ChangeOrderState'],
  ['changePaymentState', 'ChangeOrderPaymentState'],
  ['changeShipmentState', 'ChangeOrderShipmentState'],
  ['setOrderNumber', 'SetOrderNumber'],
  ['setPurchaseOrderNumber', 'SetOrderPurchaseOrderNumber'],
  ['setCustomerEmail', 'SetOrderCustomerEmail'],
  ['setCustomerId', 'SetOrderCustomerId'],
  ['setLocale', 'SetOrderLocale'],
  ['setBillingAddress', 'SetOrderBillingAddress'],
  ['setShippingAddress', 'SetOrderShippingAddress'],
  ['setCustomField', 'SetOrderCustomField'],
  ['setCustomType', 'SetOrderCustomType'],
  ['transitionState', 'TransitionOrderState'],
  ['transitionLineItemState', 'TransitionOrderLineItemState'],
  ['transitionCustomLineItemState', 'TransitionOrderCustomLineItemState'],
  ['importLineItemState', 'ImportOrderLineItemState'],
  ['importCustomLineItemState', 'ImportOrderCustomLineItemState'],
  ['addDelivery', 'AddOrderDelivery'],
  ['removeDelivery', 'RemoveOrderDelivery'],
  ['setDeliveryAddress', 'SetOrderDeliveryAddress'],
  ['setDeliveryItems', 'SetOrderDeliveryItems'],
  ['addParcelToDelivery', 'AddOrderParcelToDelivery'],
  ['removeParcelFromDelivery', 'RemoveOrderParcelFromDelivery'],
  ['setParcelMeasurements', 'SetOrderParcelMeasurements'],
  ['setParcelTrackingData', 'SetOrderParcelTrackingData'],
  ['setParcelItems', 'SetOrderParcelItems'],
  ['addReturnInfo', 'AddOrderReturnInfo'],
  ['setReturnInfo', 'SetOrderReturnInfo'],
  ['setReturnShipmentState', 'SetOrderReturnShipmentState'],
  ['setReturnPaymentState', 'SetOrderReturnPaymentState'],
  ['updateSyncInfo', 'UpdateOrderSyncInfo'],
  ['addItemShippingAddress', 'AddOrderItemShippingAddress'],
  ['removeItemShippingAddress', 'RemoveOrderItemShippingAddress'],
  ['updateItemShippingAddress', 'UpdateOrderItemShippingAddress'],
  ['setLineItemShippingDetails', 'SetOrderLineItemShippingDetails'],
  ['setCustomLineItemShippingDetails', 'SetOrderCustomLineItemShippingDetails'],
  ['addPayment', 'AddOrderPayment'],
  ['removePayment', 'RemoveOrderPayment'],
  ['setStore', 'SetOrderStore'],
  ['setBusinessUnit', 'SetOrderBusinessUnit'],
  ['setEstimatedDelivery', 'SetOrderEstimatedDelivery'],
  ['applyDeltaToLineItemShippingDetailsTargets', 'ApplyOrderDeltaToLineItemShippingDetailsTargets'],
  ['applyDeltaToCustomLineItemShippingDetailsTargets', 'ApplyOrderDeltaToCustomLineItemShippingDetailsTargets'],
  ...CUSTOMIZABLE_PARTS.flatMap(([part]) => [
    [`set${part}CustomType`, `SetOrder${part}CustomType`] as const,
    [`set${part}CustomField`, `SetOrder${part}CustomField`] as const,
  ]),
];

function orderUpdateAction(): string {
  const fields = ORDER_UPDATE_MEMBERS.map(([member, input]) => `    ${member}: ${input}`).join('\n');
  return `  "Exactly one member per action."\n  input OrderUpdateAction {\n${fields}\n  }`;
}

export const orderUpdateTypeDefs = [PART_INPUTS, partCustomFieldInputs(), OTHER_INPUTS, orderUpdateAction()].join('\n');

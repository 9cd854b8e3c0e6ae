/**
 * The mutations of the negotiation (issue 27) in the official SDL's names and argument forms
 * (the reference's graphql/schema.sdl): quote requests, staged quotes, quotes and orders, for the
 * seller's API clients, for the buyer (`createMy…`/`updateMy…`), and for an API client acting as
 * an associate of a business unit (`asAssociate`, the REST `/as-associate/…` endpoints' rules).
 * Update actions are the subset of the official inputs Herald implements (REST's actions, same
 * names and fields); the order's are in order-updates.ts.
 */
export const negotiationMutationTypeDefs = /* GraphQL */ `
  "The key of a resource (the official schema's KeyReferenceInput is a scalar: the key itself)."
  scalar KeyReferenceInput

  "The official ReferenceInput: a reference by id."
  input ReferenceInput {
    typeId: String!
    id: String!
  }

  "Who acts, in which business unit (the REST /as-associate/{associateId}/in-business-unit/key={businessUnitKey} paths)."
  input AsAssociateArgument {
    businessUnitKey: KeyReferenceInput!
    associateId: String!
  }

  enum MyQuoteState {
    Accepted
    Declined
  }

  enum ReturnShipmentState {
    Advised
    Returned
    BackInStock
    Unusable
  }

  enum ReturnPaymentState {
    NonRefundable
    Initial
    Refunded
    NotRefunded
  }

  input QuoteRequestDraft {
    key: String
    cart: ResourceIdentifierInput
    cartVersion: Long
    comment: String
    custom: CustomFieldsDraft
    state: ReferenceInput
    purchaseOrderNumber: String
  }

  input MyQuoteRequestDraft {
    cartId: String!
    cartVersion: Long!
    comment: String
  }

  input StagedQuoteDraft {
    key: String
    quoteRequest: ResourceIdentifierInput
    quoteRequestVersion: Long
    quoteRequestStateToAccepted: Boolean = false
    custom: CustomFieldsDraft
    state: ReferenceInput
  }

  input QuoteDraft {
    key: String
    stagedQuote: ResourceIdentifierInput
    stagedQuoteVersion: Long
    stagedQuoteStateToSent: Boolean = false
    custom: CustomFieldsDraft
    state: ReferenceInput
  }

  input OrderCartCommand {
    id: String
    cart: ResourceIdentifierInput
    version: Long!
    purchaseOrderNumber: String
    paymentState: PaymentState
    orderState: OrderState
    state: ResourceIdentifierInput
    shipmentState: ShipmentState
    orderNumber: String
    custom: CustomFieldsDraft
  }

  input OrderQuoteCommand {
    quote: ResourceIdentifierInput
    version: Long!
    quoteStateToAccepted: Boolean = false
    paymentState: PaymentState
    orderState: OrderState
    state: ResourceIdentifierInput
    shipmentState: ShipmentState
    orderNumber: String
  }

  input OrderMyCartCommand {
    id: String!
    version: Long!
  }

  input OrderMyQuoteCommand {
    id: String!
    version: Long!
    quoteStateToAccepted: Boolean = false
  }

  ${customAndWorkflowInputs(['QuoteRequest', 'StagedQuote', 'Quote', 'Order'])}
  input ChangeQuoteRequestState {
    quoteRequestState: QuoteRequestState!
  }

  input CancelQuoteRequest {
    dummy: String
  }

  "Exactly one member per action."
  input QuoteRequestUpdateAction {
    changeCustomer: ChangeQuoteRequestCustomer
    changeQuoteRequestState: ChangeQuoteRequestState
    setCustomField: SetQuoteRequestCustomField
    setCustomType: SetQuoteRequestCustomType
    transitionState: TransitionQuoteRequestState
  }

  "Exactly one member per action."
  input MyQuoteRequestUpdateAction {
    cancelQuoteRequest: CancelQuoteRequest
  }

  input ChangeStagedQuoteState {
    stagedQuoteState: StagedQuoteState!
  }

  input SetStagedQuoteSellerComment {
    sellerComment: String
  }

  input SetStagedQuoteValidTo {
    validTo: DateTime
  }

  "Exactly one member per action."
  input StagedQuoteUpdateAction {
    changeStagedQuoteState: ChangeStagedQuoteState
    setSellerComment: SetStagedQuoteSellerComment
    setValidTo: SetStagedQuoteValidTo
    setCustomField: SetStagedQuoteCustomField
    setCustomType: SetStagedQuoteCustomType
    transitionState: TransitionStagedQuoteState
  }

  input ChangeQuoteState {
    quoteState: QuoteState!
  }

  input RequestQuoteRenegotiation {
    buyerComment: String
  }

  input ChangeMyQuoteMyQuoteState {
    quoteState: MyQuoteState!
  }

  "Exactly one member per action. With asAssociate, the buyer's answers only: changeQuoteState to Accepted or Declined (with Accept/DeclineMyQuotes or …OthersQuotes) and requestQuoteRenegotiation."
  input QuoteUpdateAction {
    changeCustomer: ChangeQuoteCustomer
    changeQuoteState: ChangeQuoteState
    requestQuoteRenegotiation: RequestQuoteRenegotiation
    setCustomField: SetQuoteCustomField
    setCustomType: SetQuoteCustomType
    transitionState: TransitionQuoteState
  }

  "Exactly one member per action."
  input MyQuoteUpdateAction {
    changeMyQuoteState: ChangeMyQuoteMyQuoteState
    requestQuoteRenegotiation: RequestQuoteRenegotiation
  }
  extend type Mutation {
    "manage_quote_requests; with asAssociate, CreateMyQuoteRequestsFromMyCarts or CreateQuoteRequestsFromOthersCarts in the unit."
    createQuoteRequest(draft: QuoteRequestDraft!, asAssociate: AsAssociateArgument): QuoteRequest
    "manage_quote_requests. One of id and key; with asAssociate, Update{My,Others}QuoteRequests."
    updateQuoteRequest(version: Long!, actions: [QuoteRequestUpdateAction!]!, asAssociate: AsAssociateArgument, id: String, key: String): QuoteRequest
    "manage_quote_requests. One of id and key."
    deleteQuoteRequest(version: Long!, personalDataErasure: Boolean = false, id: String, key: String): QuoteRequest
    "manage_my_quote_requests and a customer token."
    createMyQuoteRequest(draft: MyQuoteRequestDraft!): QuoteRequest
    "manage_my_quote_requests and a customer token. One of id and key."
    updateMyQuoteRequest(version: Long!, actions: [MyQuoteRequestUpdateAction!]!, id: String, key: String): QuoteRequest
    "manage_staged_quotes."
    createStagedQuote(draft: StagedQuoteDraft!): StagedQuote
    "manage_staged_quotes. One of id and key."
    updateStagedQuote(version: Long!, actions: [StagedQuoteUpdateAction!]!, id: String, key: String): StagedQuote
    "manage_staged_quotes. One of id and key."
    deleteStagedQuote(version: Long!, personalDataErasure: Boolean = false, id: String, key: String): StagedQuote
    "manage_quotes."
    createQuote(draft: QuoteDraft!): Quote
    "manage_quotes. One of id and key; with asAssociate, the buyer's answers with their permissions."
    updateQuote(version: Long!, actions: [QuoteUpdateAction!]!, asAssociate: AsAssociateArgument, id: String, key: String): Quote
    "manage_quotes. One of id and key."
    deleteQuote(version: Long!, personalDataErasure: Boolean = false, id: String, key: String): Quote
    "manage_my_quotes and a customer token. One of id and key."
    updateMyQuote(version: Long!, actions: [MyQuoteUpdateAction!]!, id: String, key: String): Quote
    "manage_orders; with asAssociate (manage_orders or manage_quotes), CreateMyOrdersFromMyCarts or CreateOrdersFromOthersCarts."
    createOrderFromCart(draft: OrderCartCommand!, asAssociate: AsAssociateArgument): Order
    "manage_orders or manage_quotes; with asAssociate, CreateMyOrdersFromMyQuotes or CreateOrdersFromOthersQuotes."
    createOrderFromQuote(draft: OrderQuoteCommand!, asAssociate: AsAssociateArgument): Order
    "manage_orders. One of id and orderNumber; with asAssociate, Update{My,Others}Orders."
    updateOrder(version: Long!, actions: [OrderUpdateAction!]!, asAssociate: AsAssociateArgument, id: String, orderNumber: String): Order
    "manage_orders. One of id and orderNumber."
    deleteOrder(version: Long!, personalDataErasure: Boolean = false, id: String, orderNumber: String): Order
    "manage_my_orders and a customer or anonymous token."
    createMyOrderFromCart(draft: OrderMyCartCommand!): Order
    "manage_my_orders or manage_my_quotes and a customer token."
    createMyOrderFromQuote(draft: OrderMyQuoteCommand!): Order
  }
`;

/**
 * The official per-resource inputs of setCustomField, setCustomType, transitionState (all four)
 * and changeCustomer (quote requests and quotes): \`Set<Resource>CustomField\` and so on.
 */
function customAndWorkflowInputs(resources: readonly string[]): string {
  return resources
    .map(
      (resource) => /* GraphQL */ `
  input Set${resource}CustomField {
    name: String!
    value: String
  }

  input Set${resource}CustomType {
    fields: [CustomFieldInput!]
    type: ResourceIdentifierInput
    typeKey: String
    typeId: String
  }

  input Transition${resource}State {
    state: ResourceIdentifierInput!
    force: Boolean = false
  }
${
  resource === 'QuoteRequest' || resource === 'Quote'
    ? `
  input Change${resource}Customer {
    customer: ResourceIdentifierInput!
  }
`
    : ''
}`,
    )
    .join('');
}

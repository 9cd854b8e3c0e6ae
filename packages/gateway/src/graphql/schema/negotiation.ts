/**
 * Quote requests, staged quotes, quotes and orders in GraphQL (issue 27): the official SDL's queries
 * (`quoteRequest`/`quoteRequests`, `stagedQuote`/`stagedQuotes`, `quote`/`quotes`, `order`/`orders`) and the fields Herald
 * stores, with the official names (`customerRef`, `quoteRequestRef`, `businessUnitRef`, …).
 */
export const negotiationTypeDefs = /* GraphQL */ `
  enum QuoteRequestState {
    Submitted
    Accepted
    Closed
    Rejected
    Cancelled
  }

  enum StagedQuoteState {
    InProgress
    Sent
    Closed
  }

  enum QuoteState {
    Pending
    Declined
    DeclinedForRenegotiation
    RenegotiationAddressed
    Accepted
    Withdrawn
  }

  enum OrderState {
    Open
    Confirmed
    Complete
    Cancelled
  }

  enum ShipmentState {
    Shipped
    Delivered
    Ready
    Pending
    Delayed
    Partial
    Backorder
    Canceled
  }

  enum PaymentState {
    BalanceDue
    Failed
    Pending
    CreditOwed
    Paid
  }

  "The official BaseMoney fields of a cent-precision amount."
  type Money implements BaseMoney {
    type: String!
    currencyCode: Currency!
    centAmount: Long!
    fractionDigits: Int!
  }

  type QuoteRequest {
    id: String!
    version: Long!
    key: String
    quoteRequestState: QuoteRequestState!
    comment: String
    customerRef: Reference
    totalPrice: Money!
    purchaseOrderNumber: String
    businessUnitRef: KeyReference
    storeRef: KeyReference
    stateRef: Reference
    custom: CustomFieldsType
    createdAt: DateTime!
    lastModifiedAt: DateTime!
    createdBy: Initiator
    lastModifiedBy: Initiator
  }

  type QuoteRequestQueryResult {
    offset: Int!
    count: Int!
    total: Long!
    exists: Boolean!
    results: [QuoteRequest!]!
  }

  type StagedQuote {
    id: String!
    version: Long!
    key: String
    stagedQuoteState: StagedQuoteState!
    customerRef: Reference
    quoteRequestRef: Reference!
    quotationCartRef: Reference!
    validTo: DateTime
    sellerComment: String
    purchaseOrderNumber: String
    businessUnitRef: KeyReference
    storeRef: KeyReference
    stateRef: Reference
    custom: CustomFieldsType
    createdAt: DateTime!
    lastModifiedAt: DateTime!
    createdBy: Initiator
    lastModifiedBy: Initiator
  }

  type Quote {
    id: String!
    version: Long!
    key: String
    quoteState: QuoteState!
    quoteRequestRef: Reference!
    stagedQuoteRef: Reference!
    customerRef: Reference
    validTo: DateTime
    sellerComment: String
    buyerComment: String
    totalPrice: Money!
    purchaseOrderNumber: String
    businessUnitRef: KeyReference
    storeRef: KeyReference
    stateRef: Reference
    custom: CustomFieldsType
    createdAt: DateTime!
    lastModifiedAt: DateTime!
    createdBy: Initiator
    lastModifiedBy: Initiator
  }

  type Order {
    id: String!
    version: Long!
    orderNumber: String
    purchaseOrderNumber: String
    customerId: String
    customerEmail: String
    anonymousId: String
    orderState: OrderState!
    shipmentState: ShipmentState
    paymentState: PaymentState
    totalPrice: Money!
    "The official CartOrigin: Customer, Merchant or Quote."
    origin: String!
    cartRef: Reference
    quoteRef: Reference
    businessUnitRef: KeyReference
    storeRef: KeyReference
    stateRef: Reference
    custom: CustomFieldsType
    createdAt: DateTime!
    lastModifiedAt: DateTime!
    createdBy: Initiator
    lastModifiedBy: Initiator
  }

  type StagedQuoteQueryResult {
    offset: Int!
    count: Int!
    total: Long!
    exists: Boolean!
    results: [StagedQuote!]!
  }

  type QuoteQueryResult {
    offset: Int!
    count: Int!
    total: Long!
    exists: Boolean!
    results: [Quote!]!
  }

  type OrderQueryResult {
    offset: Int!
    count: Int!
    total: Long!
    exists: Boolean!
    results: [Order!]!
  }

  extend type Query {
    "view_quote_requests. One of id and key."
    quoteRequest(id: String, key: String): QuoteRequest
    "view_quote_requests."
    quoteRequests(where: String, sort: [String!], limit: Int, offset: Int): QuoteRequestQueryResult!
    "view_staged_quotes. One of id and key."
    stagedQuote(id: String, key: String): StagedQuote
    "view_staged_quotes."
    stagedQuotes(where: String, sort: [String!], limit: Int, offset: Int): StagedQuoteQueryResult!
    "view_quotes. One of id and key."
    quote(id: String, key: String): Quote
    "view_quotes."
    quotes(where: String, sort: [String!], limit: Int, offset: Int): QuoteQueryResult!
    "view_orders. One of id and orderNumber."
    order(id: String, orderNumber: String): Order
    "view_orders."
    orders(where: String, sort: [String!], limit: Int, offset: Int): OrderQueryResult!
  }
`;

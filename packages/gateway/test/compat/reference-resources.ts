/**
 * The resources Herald serves, as the reference conformance test drives them through HTTP: how
 * to create, query and update one, and which official type each answer is. Rows run in order and
 * may use what earlier rows made; deletable rows are deleted at the end in reverse order.
 */
import { address, eur, lineItem, type Json } from '../carts/commerce.js';

export const PROJECT = 'reference-conformance';

/** What earlier rows made, by row name: the resource as the last answer showed it. */
export type Made = Record<string, Json>;

export interface ResourceRow {
  /** Row name, used in test titles and by later rows. */
  readonly name: string;
  /** REST collection under the project: `/{projectKey}/{path}`. */
  readonly path: string;
  /** The reference type of the resource (get, update, delete answers). */
  readonly type: string;
  /** The reference type of a paged query response. */
  readonly page: string;
  /** The reference type of the create answer, where it is not the resource (CustomerSignInResult). */
  readonly createdType?: string;
  /** The resource inside the create answer (default: the answer). */
  readonly resourceOf?: (answer: Json) => Json;
  /** Change notifications of this row are subscribed to under this resource type id (§2.4). */
  readonly changeTypeId?: string;
  readonly draft: (made: Made) => Json;
  /** Update actions on the created resource; none for resources without updates (API clients). */
  readonly actions?: (resource: Json, made: Made) => Json[];
  /** The query that finds the resource (default: `where=id = "<id>"`). */
  readonly query?: (resource: Json) => string;
  readonly deletable: boolean;
  /** A `/me` row: driven with an anonymous session's token (§5.3) with these scopes, not the API client's. */
  readonly session?: readonly string[];
}

/** The default query: the resource by its id. */
export const byId = (resource: Json) => `where=${encodeURIComponent(`id = "${resource.id as string}"`)}`;

export const RESOURCE_ROWS: readonly ResourceRow[] = [
  {
    name: 'type',
    path: 'types',
    type: 'Type',
    page: 'TypePagedQueryResponse',
    changeTypeId: 'type',
    draft: () => ({
      key: 'reference-type',
      name: { en: 'Reference extras' },
      description: { en: 'Custom fields of the conformance test' },
      resourceTypeIds: ['store', 'order'],
      fieldDefinitions: [
        { name: 'note', label: { en: 'Note' }, required: false, type: { name: 'String' }, inputHint: 'SingleLine' },
        { name: 'priority', label: { en: 'Priority' }, required: false, type: { name: 'Enum', values: [{ key: 'low', label: 'Low' }] } },
      ],
    }),
    actions: () => [{ action: 'changeName', name: { en: 'Reference extras, renamed' } }],
    deletable: true,
  },
  {
    name: 'store',
    path: 'stores',
    type: 'Store',
    page: 'StorePagedQueryResponse',
    changeTypeId: 'store',
    draft: () => ({
      key: 'reference-store',
      name: { en: 'Berlin', de: 'Berlin' },
      languages: ['en', 'de'],
      custom: { type: { typeId: 'type', key: 'reference-type' }, fields: { note: 'flagship' } },
    }),
    actions: () => [
      { action: 'setName', name: { en: 'Berlin Mitte' } },
      { action: 'setLanguages', languages: ['en'] },
      { action: 'addCountry', country: { code: 'DE' } },
      { action: 'setCustomField', name: 'note', value: 'flagship store' },
    ],
    deletable: true,
  },
  {
    name: 'state',
    path: 'states',
    type: 'State',
    page: 'StatePagedQueryResponse',
    changeTypeId: 'state',
    draft: () => ({ key: 'reference-state', type: 'QuoteRequestState', initial: true, name: { en: 'In review' } }),
    actions: () => [{ action: 'setName', name: { en: 'Under review' } }],
    deletable: true,
  },
  {
    name: 'customer',
    path: 'customers',
    type: 'Customer',
    page: 'CustomerPagedQueryResponse',
    createdType: 'CustomerSignInResult',
    resourceOf: (answer) => answer.customer as Json,
    changeTypeId: 'customer',
    draft: () => ({
      key: 'reference-customer',
      email: 'reference-customer@example.com',
      password: 'reference-password',
      firstName: 'Erika',
      addresses: [address('DE', { key: 'home' }), address('AT', { key: 'office', company: 'ACME' })],
      defaultShippingAddress: 0,
      billingAddresses: [1],
    }),
    actions: () => [
      { action: 'setLastName', lastName: 'Mustermann' },
      { action: 'setFirstName', firstName: 'Erika Maria' },
      { action: 'changeEmail', email: 'erika@reference.example' },
      { action: 'addAddress', address: address('FR', { key: 'paris' }) },
      { action: 'changeAddress', addressKey: 'office', address: address('AT', { key: 'office', company: 'ACME GmbH' }) },
      { action: 'setDefaultBillingAddress', addressKey: 'paris' },
      { action: 'addShippingAddressId', addressKey: 'office' },
      { action: 'removeAddress', addressKey: 'home' },
      { action: 'setCompanyName', companyName: 'ACME' },
      { action: 'setDateOfBirth', dateOfBirth: '1980-02-29' },
      { action: 'setCustomerNumber', customerNumber: 'C-1' },
      { action: 'setStores', stores: [{ typeId: 'store', key: 'reference-store' }] },
    ],
    deletable: true,
  },
  {
    name: 'cart',
    path: 'carts',
    type: 'Cart',
    page: 'CartPagedQueryResponse',
    changeTypeId: 'cart',
    draft: (made) => ({
      key: 'reference-cart',
      currency: 'EUR',
      customerId: made.customer?.id,
      store: { typeId: 'store', key: 'reference-store' },
      country: 'DE',
      lineItems: [lineItem('SKU-1', 1000, 2)],
      customLineItems: [{ name: { en: 'Setup' }, slug: 'setup', money: eur(700), quantity: 1 }],
      shippingAddress: address('DE'),
      billingAddress: address('DE', { company: 'ACME' }),
    }),
    actions: () => [
      { action: 'addLineItem', ...lineItem('SKU-2', 250, 3) },
      { action: 'setPurchaseOrderNumber', purchaseOrderNumber: 'PO-7' },
      { action: 'addItemShippingAddress', address: address('AT', { key: 'vienna' }) },
    ],
    deletable: true,
  },
  {
    name: 'quote request',
    path: 'quote-requests',
    type: 'QuoteRequest',
    page: 'QuoteRequestPagedQueryResponse',
    changeTypeId: 'quote-request',
    draft: (made) => ({
      key: 'reference-quote-request',
      cart: { typeId: 'cart', id: made.cart?.id },
      cartVersion: made.cart?.version,
      comment: 'Please quote',
    }),
    actions: () => [
      { action: 'transitionState', state: { typeId: 'state', key: 'reference-state' } },
      { action: 'changeQuoteRequestState', quoteRequestState: 'Accepted' },
    ],
    deletable: true,
  },
  {
    name: 'company',
    path: 'business-units',
    type: 'BusinessUnit',
    page: 'BusinessUnitPagedQueryResponse',
    changeTypeId: 'business-unit',
    draft: (made) => ({
      key: 'reference-company',
      name: 'Reference Co',
      unitType: 'Company',
      contactEmail: 'info@reference.example',
      addresses: [address('DE', { key: 'hq' }), address('FR', { key: 'paris' })],
      defaultShippingAddress: 0,
      billingAddresses: [1],
      stores: [{ typeId: 'store', key: 'reference-store' }],
      associates: [{ roles: ['Admin', 'Buyer'], customer: { typeId: 'customer', id: made.customer?.id } }],
    }),
    actions: () => [
      { action: 'changeName', name: 'Reference Company' },
      { action: 'setContactEmail', contactEmail: 'sales@reference.example' },
      { action: 'changeStatus', status: 'Inactive' },
      { action: 'addAddress', address: address('IT', { key: 'rome' }) },
      { action: 'changeAddress', addressKey: 'paris', address: address('FR', { key: 'paris', company: 'Reference SARL' }) },
      { action: 'addShippingAddressId', addressKey: 'rome' },
      { action: 'setDefaultBillingAddress', addressKey: 'paris' },
    ],
    deletable: true,
  },
  {
    name: 'division',
    path: 'business-units',
    type: 'BusinessUnit',
    page: 'BusinessUnitPagedQueryResponse',
    changeTypeId: 'business-unit',
    draft: () => ({
      key: 'reference-division',
      name: 'Reference Division',
      unitType: 'Division',
      parentUnit: { typeId: 'business-unit', key: 'reference-company' },
    }),
    actions: () => [{ action: 'changeName', name: 'Reference Division East' }],
    deletable: true,
  },
  {
    name: 'api client',
    path: 'api-clients',
    type: 'ApiClient',
    page: 'ApiClientPagedQueryResponse',
    draft: () => ({ name: 'reference client', scope: `view_stores:${PROJECT}` }),
    // The API clients endpoint has no predicates: the page is read as a whole.
    query: () => 'limit=500',
    deletable: true,
  },
  {
    name: 'category',
    path: 'categories',
    type: 'Category',
    page: 'CategoryPagedQueryResponse',
    changeTypeId: 'category',
    draft: () => ({ key: 'reference-category', name: { en: 'Hats' }, slug: { en: 'reference-hats' }, orderHint: '0.1' }),
    actions: () => [
      { action: 'changeSlug', slug: { en: 'reference-caps' } },
      { action: 'setMetaTitle', metaTitle: { en: 'Caps' } },
    ],
    deletable: true,
  },
  {
    name: 'subcategory',
    path: 'categories',
    type: 'Category',
    page: 'CategoryPagedQueryResponse',
    changeTypeId: 'category',
    draft: () => ({
      key: 'reference-subcategory',
      name: { en: 'Berets' },
      slug: { en: 'reference-berets' },
      parent: { typeId: 'category', key: 'reference-category' },
      assets: [{ key: 'photo', name: { en: 'Photo' }, sources: [{ uri: 'https://cdn.example/beret.png', dimensions: { w: 10, h: 10 } }], tags: ['x'] }],
    }),
    actions: () => [
      { action: 'changeName', name: { en: 'Berets and caps' } },
      { action: 'setAssetTags', assetKey: 'photo', tags: ['y'] },
    ],
    deletable: true,
  },
  {
    name: 'tax category',
    path: 'tax-categories',
    type: 'TaxCategory',
    page: 'TaxCategoryPagedQueryResponse',
    changeTypeId: 'tax-category',
    draft: () => ({
      key: 'reference-tax-category',
      name: 'Reference standard rate',
      description: 'Taxes of the conformance test',
      rates: [
        { key: 'de', name: 'MwSt', amount: 0.19, includedInPrice: true, country: 'DE' },
        {
          name: 'NY',
          includedInPrice: false,
          country: 'US',
          state: 'New York',
          subRates: [
            { name: 'State', amount: 0.04 },
            { name: 'City', amount: 0.04875 },
          ],
        },
      ],
    }),
    actions: () => [
      { action: 'addTaxRate', taxRate: { key: 'at', name: 'USt', amount: 0.2, includedInPrice: true, country: 'AT' } },
      { action: 'changeName', name: 'Reference standard rate, renamed' },
    ],
    deletable: true,
  },
  {
    name: 'zone',
    path: 'zones',
    type: 'Zone',
    page: 'ZonePagedQueryResponse',
    changeTypeId: 'zone',
    draft: () => ({
      key: 'reference-zone',
      name: 'Reference Europe',
      description: 'Zone of the conformance test',
      locations: [{ country: 'DE' }, { country: 'US', state: 'New York' }],
    }),
    actions: () => [
      { action: 'addLocation', location: { country: 'AT' } },
      { action: 'setDescription', description: 'Zone of the conformance test, described again' },
    ],
    deletable: true,
  },
  {
    name: 'product type',
    path: 'product-types',
    type: 'ProductType',
    page: 'ProductTypePagedQueryResponse',
    changeTypeId: 'product-type',
    draft: () => ({
      key: 'reference-product-type',
      name: 'Reference shirts',
      description: 'Shirts of the conformance test',
      attributes: [
        { name: 'reference-colour', label: { en: 'Colour' }, isRequired: false, type: { name: 'enum', values: [{ key: 'red', label: 'Red' }] } },
        {
          name: 'reference-sizes',
          label: { en: 'Sizes' },
          isRequired: false,
          type: { name: 'set', elementType: { name: 'lenum', values: [{ key: 's', label: { en: 'S' } }] } },
        },
      ],
    }),
    actions: () => [
      { action: 'addPlainEnumValue', attributeName: 'reference-colour', value: { key: 'blue', label: 'Blue' } },
      { action: 'changeDescription', description: 'Shirts of the conformance test, described again' },
    ],
    deletable: true,
  },
  {
    name: 'customer group',
    path: 'customer-groups',
    type: 'CustomerGroup',
    page: 'CustomerGroupPagedQueryResponse',
    changeTypeId: 'customer-group',
    draft: () => ({ key: 'reference-customer-group', groupName: 'Reference VIP' }),
    actions: () => [
      { action: 'changeName', name: 'Reference VIPs' },
      { action: 'setKey', key: 'reference-customer-group-renamed' },
    ],
    deletable: true,
  },
  {
    name: 'channel',
    path: 'channels',
    type: 'Channel',
    page: 'ChannelPagedQueryResponse',
    changeTypeId: 'channel',
    draft: () => ({
      key: 'reference-channel',
      roles: ['InventorySupply', 'ProductDistribution'],
      name: { en: 'Reference warehouse' },
      address: address('DE', { key: 'warehouse' }),
      geoLocation: { type: 'Point', coordinates: [13.37774, 52.51627] },
    }),
    actions: () => [
      { action: 'changeDescription', description: { en: 'Warehouse of the conformance test' } },
      { action: 'addRoles', roles: ['Primary'] },
      { action: 'setGeoLocation', geoLocation: { type: 'Point', coordinates: [16.37, 48.21] } },
    ],
    deletable: true,
  },
  {
    // After the product type, category and tax category rows: deleted before them.
    name: 'product',
    path: 'products',
    type: 'Product',
    page: 'ProductPagedQueryResponse',
    changeTypeId: 'product',
    draft: () => ({
      key: 'reference-product',
      productType: { typeId: 'product-type', key: 'reference-product-type' },
      name: { en: 'Reference shirt' },
      slug: { en: 'reference-shirt' },
      categories: [{ typeId: 'category', key: 'reference-category' }],
      taxCategory: { typeId: 'tax-category', key: 'reference-tax-category' },
      masterVariant: {
        sku: 'reference-shirt-1',
        prices: [{ value: eur(1999), country: 'DE' }],
        images: [{ url: 'https://example.com/shirt.png', dimensions: { w: 10, h: 10 } }],
        attributes: [{ name: 'reference-colour', value: 'red' }],
      },
    }),
    actions: () => [
      { action: 'addVariant', sku: 'reference-shirt-2', prices: [{ value: eur(2499) }] },
      { action: 'changeName', name: { en: 'Reference shirt, renamed' } },
      { action: 'addExternalImage', variantId: 1, image: { url: 'https://example.com/shirt-back.png', dimensions: { w: 10, h: 10 }, label: 'Back' } },
      { action: 'addAsset', variantId: 1, asset: { key: 'reference-care', name: { en: 'Care' }, sources: [{ uri: 'https://example.com/care.pdf' }] } },
      { action: 'publish' },
    ],
    deletable: true,
  },
  {
    // After the product row: deleted before it.
    name: 'product selection',
    path: 'product-selections',
    type: 'ProductSelection',
    page: 'ProductSelectionPagedQueryResponse',
    changeTypeId: 'product-selection',
    draft: () => ({ key: 'reference-selection', name: { en: 'Reference selection' } }),
    actions: (_selection, made) => [
      { action: 'addProduct', product: { typeId: 'product', id: made.product?.id } },
      { action: 'changeName', name: { en: 'Reference selection, renamed' } },
    ],
    deletable: true,
  },
  {
    name: 'associate role',
    path: 'associate-roles',
    type: 'AssociateRole',
    page: 'AssociateRolePagedQueryResponse',
    changeTypeId: 'associate-role',
    draft: () => ({ key: 'reference-role', name: 'Reference buyer', permissions: ['ViewMyCarts', 'CreateMyCarts'] }),
    actions: () => [
      { action: 'setName', name: 'Reference buyers' },
      { action: 'addPermission', permission: 'ViewMyOrders' },
    ],
    deletable: true,
  },
  {
    // After the tax category and zone rows: deleted before them.
    name: 'shipping method',
    path: 'shipping-methods',
    type: 'ShippingMethod',
    page: 'ShippingMethodPagedQueryResponse',
    changeTypeId: 'shipping-method',
    draft: (made) => ({
      key: 'reference-shipping',
      name: 'Reference standard',
      taxCategory: { typeId: 'tax-category', id: made['tax category']?.id },
      zoneRates: [{ zone: { typeId: 'zone', id: made.zone?.id }, shippingRates: [{ price: eur(499), freeAbove: eur(5000) }] }],
      isDefault: false,
    }),
    actions: () => [{ action: 'setLocalizedName', localizedName: { en: 'Standard' } }],
    deletable: true,
  },
  {
    // After the channel row (an InventorySupply and ProductDistribution channel): deleted before it.
    name: 'inventory entry',
    path: 'inventory',
    type: 'InventoryEntry',
    page: 'InventoryPagedQueryResponse',
    changeTypeId: 'inventory-entry',
    draft: (made) => ({ sku: 'reference-shirt-1', quantityOnStock: 10, restockableInDays: 3, supplyChannel: { typeId: 'channel', id: made.channel?.id } }),
    actions: () => [
      { action: 'addQuantity', quantity: 5 },
      { action: 'setExpectedDelivery', expectedDelivery: '2026-12-24T10:00:00.000Z' },
    ],
    deletable: true,
  },
  {
    name: 'standalone price',
    path: 'standalone-prices',
    type: 'StandalonePrice',
    page: 'StandalonePricePagedQueryResponse',
    changeTypeId: 'standalone-price',
    draft: (made) => ({
      key: 'reference-price',
      sku: 'reference-shirt-1',
      value: eur(1899),
      country: 'DE',
      channel: { typeId: 'channel', id: made.channel?.id },
    }),
    actions: () => [
      { action: 'changeValue', value: eur(1799) },
      { action: 'changeActive', active: false },
    ],
    deletable: true,
  },
  {
    name: 'payment',
    path: 'payments',
    type: 'Payment',
    page: 'PaymentPagedQueryResponse',
    changeTypeId: 'payment',
    draft: () => ({
      key: 'reference-payment',
      amountPlanned: eur(1999),
      paymentMethodInfo: { paymentInterface: 'reference-psp', method: 'card', name: { en: 'Card' } },
      transactions: [{ type: 'Authorization', amount: eur(1999), state: 'Success' }],
    }),
    actions: () => [
      { action: 'addTransaction', transaction: { type: 'Charge', amount: eur(1999) } },
      { action: 'setStatusInterfaceCode', interfaceCode: 'paid' },
    ],
    deletable: true,
  },
  {
    // After the customer, store and product rows: deleted before them.
    name: 'shopping list',
    path: 'shopping-lists',
    type: 'ShoppingList',
    page: 'ShoppingListPagedQueryResponse',
    changeTypeId: 'shopping-list',
    draft: (made) => ({
      key: 'reference-list',
      name: { en: 'Reference wishes' },
      customer: { typeId: 'customer', id: made.customer?.id },
      store: { typeId: 'store', key: 'reference-store' },
      lineItems: [{ sku: 'reference-shirt-1', quantity: 2 }],
      textLineItems: [{ name: { en: 'A gift card' } }],
    }),
    actions: (list) => [
      { action: 'addLineItem', sku: 'reference-shirt-2' },
      { action: 'removeLineItem', lineItemId: list.lineItems[0].id, quantity: 1 },
      { action: 'changeName', name: { en: 'Reference wishes, renamed' } },
    ],
    deletable: true,
  },
  {
    // After the product and state rows: deleted before them.
    name: 'review',
    path: 'reviews',
    type: 'Review',
    page: 'ReviewPagedQueryResponse',
    changeTypeId: 'review',
    draft: (made) => ({ key: 'reference-review', title: 'Fits', rating: 4, locale: 'en', target: { typeId: 'product', id: made.product?.id } }),
    actions: () => [
      { action: 'setRating', rating: 5 },
      { action: 'setText', text: 'Fits well.' },
    ],
    deletable: true,
  },
  {
    // Triggered by payment methods, which Herald does not serve: the other rows call no Extension.
    name: 'extension',
    path: 'extensions',
    type: 'Extension',
    page: 'ExtensionPagedQueryResponse',
    changeTypeId: 'extension',
    draft: () => ({
      key: 'reference-extension',
      destination: {
        type: 'HTTP',
        url: 'https://extensions.example.com/reference',
        authentication: { type: 'AuthorizationHeader', headerValue: 'Bearer reference-secret-42' },
      },
      triggers: [{ resourceTypeId: 'payment-method', actions: ['Create', 'Update'] }],
      timeoutInMs: 1500,
    }),
    actions: () => [
      { action: 'setTimeoutInMs', timeoutInMs: 2500 },
      { action: 'changeTriggers', triggers: [{ resourceTypeId: 'payment-method', actions: ['Update'], condition: 'key is defined' }] },
    ],
    deletable: true,
  },
  {
    // After the product row (its predicate names the product's SKU).
    name: 'product discount',
    path: 'product-discounts',
    type: 'ProductDiscount',
    page: 'ProductDiscountPagedQueryResponse',
    changeTypeId: 'product-discount',
    draft: () => ({
      key: 'reference-product-discount',
      name: { en: 'Reference shirts, 10% off' },
      value: { type: 'relative', permyriad: 1000 },
      predicate: 'sku = "reference-shirt-1"',
      sortOrder: '0.7',
      isActive: true,
    }),
    actions: () => [
      { action: 'changeValue', value: { type: 'absolute', money: [eur(200)] } },
      { action: 'changeIsActive', isActive: false },
    ],
    deletable: true,
  },
  {
    name: 'cart discount',
    path: 'cart-discounts',
    type: 'CartDiscount',
    page: 'CartDiscountPagedQueryResponse',
    changeTypeId: 'cart-discount',
    draft: () => ({
      key: 'reference-cart-discount',
      name: { en: 'Reference 5 EUR off' },
      value: { type: 'absolute', money: [eur(500)] },
      cartPredicate: 'totalPrice > "20.00 EUR"',
      target: { type: 'lineItems', predicate: '1 = 1' },
      sortOrder: '0.6',
      requiresDiscountCode: true,
    }),
    actions: () => [{ action: 'changeName', name: { en: 'Reference 5 EUR off, renamed' } }],
    deletable: true,
  },
  {
    // After the cart discount row: deleted before it (a code holds its cart discount).
    name: 'discount code',
    path: 'discount-codes',
    type: 'DiscountCode',
    page: 'DiscountCodePagedQueryResponse',
    changeTypeId: 'discount-code',
    draft: (made) => ({
      key: 'reference-code',
      code: 'REFERENCE5',
      cartDiscounts: [{ typeId: 'cart-discount', id: made['cart discount']?.id }],
      maxApplications: 100,
    }),
    actions: () => [
      { action: 'changeIsActive', isActive: false },
      { action: 'setMaxApplicationsPerCustomer', maxApplicationsPerCustomer: 1 },
    ],
    deletable: true,
  },
  {
    // After the cart row (an order from it) and the quote request made of it: deleted before them.
    name: 'order',
    path: 'orders',
    type: 'Order',
    page: 'OrderPagedQueryResponse',
    changeTypeId: 'order',
    draft: (made) => ({ cart: { typeId: 'cart', id: made.cart?.id }, version: made.cart?.version, orderNumber: 'reference-order-1' }),
    actions: () => [{ action: 'setCustomerEmail', email: 'orders@reference.example' }],
    deletable: true,
  },
  {
    // resources/order-edits.raml: an edit of the order row's order, previewed (OrderEditPreviewSuccess).
    name: 'order edit',
    path: 'order-edits',
    type: 'OrderEdit',
    page: 'OrderEditPagedQueryResponse',
    changeTypeId: 'order-edit',
    draft: (made) => ({
      key: 'reference-order-edit',
      resource: { typeId: 'order', id: made.order?.id },
      stagedActions: [{ action: 'setCustomerEmail', email: 'edited@reference.example' }],
      comment: 'Customer called',
    }),
    actions: () => [
      { action: 'setComment', comment: 'Customer called twice' },
      { action: 'addStagedAction', stagedAction: { action: 'changeOrderState', orderState: 'Confirmed' } },
    ],
    deletable: true,
  },
  {
    // resources/me.raml `/payments`: a MyPayment of an anonymous session, without transactions (me.raml:
    // only such a Payment may be updated or deleted through /me).
    name: 'my payment',
    path: 'me/payments',
    type: 'MyPayment',
    page: 'MyPaymentPagedQueryResponse',
    changeTypeId: 'payment',
    session: ['manage_my_payments'],
    draft: () => ({
      amountPlanned: eur(1500),
      paymentMethodInfo: { paymentInterface: 'reference-psp', method: 'card', name: { en: 'Card' } },
    }),
    actions: () => [
      { action: 'changeAmountPlanned', amount: eur(1800) },
      { action: 'setMethodInfoName', name: { en: 'Credit card' } },
      { action: 'setMethodInfoMethod', method: 'credit card' },
    ],
    deletable: true,
  },
];

/** A read-only answer the conformance test checks: a GET under the project and its reference type. */
export interface ReadRow {
  readonly name: string;
  /** The reference type of the answer. */
  readonly type: string;
  /** The path and query under `/{projectKey}/`, from what the resource rows made. */
  readonly url: (made: Made) => string;
}

const productId = (made: Made): string => made.product?.id as string;
/** Price selection (priceCurrency + priceCountry): variants answer `price` (and `scopedPrice` in search). */
const PRICED = 'priceCurrency=EUR&priceCountry=DE';
const SEARCH_FACETS = [
  'variants.price.centAmount:range (* to 2000), (2000 to *) as price',
  'variants.sku',
  'variants.sku:"reference-shirt-1" as first counting products',
]
  .map((facet) => `facet=${encodeURIComponent(facet)}`)
  .join('&');

/**
 * Product projections (resources/product-projections.raml, product-projections-search.raml and
 * the in-store form): read after the resource rows, of the published `product` row, before the
 * deletes.
 */
export const READ_ROWS: readonly ReadRow[] = [
  {
    name: 'product projections query',
    type: 'ProductProjectionPagedQueryResponse',
    url: (made) => `product-projections?where=${encodeURIComponent(`id = "${productId(made)}"`)}&sort=${encodeURIComponent('createdAt desc')}&${PRICED}`,
  },
  { name: 'product projection by id', type: 'ProductProjection', url: (made) => `product-projections/${productId(made)}?${PRICED}` },
  { name: 'product projection by key', type: 'ProductProjection', url: () => `product-projections/key=reference-product?localeProjection=en` },
  { name: 'staged product projection by id', type: 'ProductProjection', url: (made) => `product-projections/${productId(made)}?staged=true` },
  {
    name: 'product projection in store',
    type: 'ProductProjection',
    url: (made) => `in-store/key=reference-store/product-projections/${productId(made)}?${PRICED}`,
  },
  {
    name: 'product projection search',
    type: 'ProductProjectionPagedSearchResponse',
    url: () =>
      `product-projections/search?${PRICED}&markMatchingVariants=true&filter.query=${encodeURIComponent('variants.sku:"reference-shirt-1"')}&${SEARCH_FACETS}`,
  },
];

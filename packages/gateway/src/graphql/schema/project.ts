/**
 * §2.2 Project `businessUnits` and §4.3 `changeMyBusinessUnitStatusOnCreation`, with the other
 * ProjectSettingsUpdateAction members: every action of REST's `POST /{projectKey}`
 * (types/project/updates/Project*Action.raml), named `<Verb>ProjectSettings<Subject>` like §4.3's.
 * The polymorphic ShippingRateInputType is `Json` in the REST draft's form.
 */
const PROJECT_ACTIONS: readonly (readonly [member: string, input: string, fields: string])[] = [
  ['changeMyBusinessUnitStatusOnCreation', 'ChangeProjectSettingsMyBusinessUnitStatusOnCreation', 'status: BusinessUnitStatus!'],
  ['setMyBusinessUnitAssociateRoleOnCreation', 'SetProjectSettingsMyBusinessUnitAssociateRoleOnCreation', 'associateRole: ResourceIdentifierInput!'],
  ['changeName', 'ChangeProjectSettingsName', 'name: String!'],
  ['changeCountries', 'ChangeProjectSettingsCountries', 'countries: [Country!]!'],
  ['changeCurrencies', 'ChangeProjectSettingsCurrencies', 'currencies: [Currency!]!'],
  ['changeLanguages', 'ChangeProjectSettingsLanguages', 'languages: [Locale!]!'],
  ['changeCountryTaxRateFallbackEnabled', 'ChangeProjectSettingsCountryTaxRateFallbackEnabled', 'countryTaxRateFallbackEnabled: Boolean!'],
  ['changePriceRoundingMode', 'ChangeProjectSettingsPriceRoundingMode', 'priceRoundingMode: RoundingMode!'],
  ['changeTaxRoundingMode', 'ChangeProjectSettingsTaxRoundingMode', 'taxRoundingMode: RoundingMode!'],
  ['setShippingRateInputType', 'SetProjectSettingsShippingRateInputType', 'shippingRateInputType: Json'],
  ['changeCartsConfiguration', 'ChangeProjectSettingsCartsConfiguration', 'cartsConfiguration: CartsConfigurationInput!'],
  ['changeShoppingListsConfiguration', 'ChangeProjectSettingsShoppingListsConfiguration', 'shoppingListsConfiguration: ShoppingListsConfigurationInput!'],
  ['setDiscountsConfiguration', 'SetProjectSettingsDiscountsConfiguration', 'discountsConfiguration: DiscountsConfigurationInput!'],
  ['setReservationExpirationInMinutes', 'SetProjectSettingsReservationExpirationInMinutes', 'reservationExpirationInMinutes: Int'],
  ['setReleaseExpiredReservations', 'SetProjectSettingsReleaseExpiredReservations', 'releaseExpiredReservations: Boolean!'],
  ['setProductCatalogModel', 'SetProjectSettingsProductCatalogModel', 'productCatalogModel: String!'],
  ['changeMessagesEnabled', 'ChangeProjectSettingsMessagesEnabled', 'messagesEnabled: Boolean!'],
  ['changeMessagesConfiguration', 'ChangeProjectSettingsMessagesConfiguration', 'messagesConfiguration: MessagesConfigurationDraft!'],
  ['changeProductSearchIndexingEnabled', 'ChangeProjectSettingsProductSearchIndexingEnabled', 'enabled: Boolean!\n    mode: String'],
  ['changeOrderSearchStatus', 'ChangeProjectSettingsOrderSearchStatus', 'status: String!'],
  ['changeCustomerSearchStatus', 'ChangeProjectSettingsCustomerSearchStatus', 'status: String!'],
  ['changeBusinessUnitSearchStatus', 'ChangeProjectSettingsBusinessUnitSearchStatus', 'status: String!'],
  ['setExternalOAuth', 'SetProjectSettingsExternalOAuth', '"Needs manage_project, as in REST."\n    externalOAuth: ExternalOAuthDraft'],
  ['changeEnvironment', 'ChangeProjectSettingsEnvironment', '"§3.3: production, staging or development."\n    environment: String!'],
];

const PROJECT_DRAFT_TYPES = /* GraphQL */ `
  input CartsConfigurationInput {
    deleteDaysAfterLastModification: Int
  }
  input ShoppingListsConfigurationInput {
    deleteDaysAfterLastModification: Int
  }
  input DiscountsConfigurationInput {
    discountCombinationMode: String!
  }
  input MessagesConfigurationDraft {
    enabled: Boolean!
    deleteDaysAfterCreation: Int
  }
  input ExternalOAuthDraft {
    url: String!
    authorizationHeader: String!
  }
`;

function projectActionInputs(): string {
  const inputs = PROJECT_ACTIONS.map(([, input, fields]) => `  input ${input} {\n    ${fields}\n  }`).join('\n');
  const members = PROJECT_ACTIONS.map(([member, input]) => `    ${member}: ${input}`).join('\n');
  return `${inputs}\n\n  "Exactly one member per action."\n  input ProjectSettingsUpdateAction {\n${members}\n  }`;
}

export const projectTypeDefs = /* GraphQL */ `
  type ProjectProjection {
    key: String!
    name: String!
    version: Long!
    businessUnits: BusinessUnitConfiguration!
  }
  ${PROJECT_DRAFT_TYPES}
  ${projectActionInputs()}
`;

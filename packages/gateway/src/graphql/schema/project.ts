/** §2.2 Project `businessUnits` and §4.3 `changeMyBusinessUnitStatusOnCreation`. */
export const projectTypeDefs = /* GraphQL */ `
  type ProjectProjection {
    key: String!
    name: String!
    version: Long!
    businessUnits: BusinessUnitConfiguration!
  }

  input ChangeProjectSettingsMyBusinessUnitStatusOnCreation {
    status: BusinessUnitStatus!
  }

  "Exactly one member per action."
  input ProjectSettingsUpdateAction {
    changeMyBusinessUnitStatusOnCreation: ChangeProjectSettingsMyBusinessUnitStatusOnCreation
  }
`;

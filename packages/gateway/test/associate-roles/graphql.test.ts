/**
 * Issue 27 in GraphQL: associate role queries and mutations, the reference's assignment fields of
 * Associate (associateRoleAssignments) and BusinessUnit (associateMode, inheritedAssociates), and
 * AssociateDraft with associateRoleAssignments beside §2.2's roles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, customerClient, type Client } from '../business-units/support.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** Starting a gateway and signing customers up takes long on a busy machine. */
const SETUP_MS = 180_000;
const P = 'associate-roles-graphql';

const ROLE_FIELDS = 'id version key name buyerAssignable permissions';

describe('associate roles in GraphQL', () => {
  let gateway: TestGateway;
  let merchant: Client;
  let viewer: Client;
  let member: Client;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P] });
    merchant = await apiClient(gateway, P, ['manage_associate_roles', 'manage_business_units']);
    viewer = await apiClient(gateway, P, ['view_business_units']);
    member = await customerClient(gateway, P, ['manage_my_business_units']);
  }, SETUP_MS);
  afterAll(() => gateway.close());

  it('creates, reads, updates and deletes associate roles', async () => {
    const created = (
      await merchant.gql(
        `mutation { createAssociateRole(draft: { key: "approver", name: "Approver", permissions: [ViewMyCarts, UpdateMyCarts] }) { ${ROLE_FIELDS} } }`,
      )
    ).createAssociateRole;
    expect(created).toMatchObject({ version: 1, key: 'approver', name: 'Approver', buyerAssignable: true, permissions: ['ViewMyCarts', 'UpdateMyCarts'] });
    const updated = (
      await merchant.gql(
        `mutation($version: Long!) { updateAssociateRole(key: "approver", version: $version, actions: [{ addPermission: { permission: ViewOthersCarts } }, { changeBuyerAssignable: { buyerAssignable: false } }]) { ${ROLE_FIELDS} } }`,
        { version: created.version },
      )
    ).updateAssociateRole;
    expect(updated).toMatchObject({ version: 2, buyerAssignable: false, permissions: ['ViewMyCarts', 'UpdateMyCarts', 'ViewOthersCarts'] });
    const read = await merchant.gql(
      `{ associateRole(id: "${created.id as string}") { key } associateRoles(where: "key = \\"approver\\"") { total results { key permissions } } }`,
    );
    expect(read).toEqual({
      associateRole: { key: 'approver' },
      associateRoles: { total: 1, results: [{ key: 'approver', permissions: ['ViewMyCarts', 'UpdateMyCarts', 'ViewOthersCarts'] }] },
    });
    const refused = await viewer.gqlError('{ associateRoles { total } }');
    expect(refused.extensions.code).toBe('InsufficientScope');
    const deleted = (await merchant.gql('mutation { deleteAssociateRole(key: "approver", version: 2) { key } }')).deleteAssociateRole;
    expect(deleted).toEqual({ key: 'approver' });
    expect((await merchant.gql('{ associateRole(key: "approver") { key } }')).associateRole).toBeNull();
  });

  it('takes associateRoleAssignments in AssociateDraft and answers them with the inherited associates', async () => {
    await merchant.gql('mutation { createAssociateRole(draft: { key: "purchaser", permissions: [CreateMyCarts] }) { key } }');
    const company = (
      await merchant.gql(
        `mutation($customer: String!) { createBusinessUnit(draft: { key: "gq-acme", name: "ACME", unitType: Company, associates: [
        { associateRoleAssignments: [{ associateRole: { key: "purchaser" }, inheritance: Enabled }], customer: { id: $customer } }
      ] }) { associateMode associates { roles associateRoleAssignments { associateRoleRef { key } associateRole { key permissions } inheritance } } } }`,
        { customer: member.customerId },
      )
    ).createBusinessUnit;
    expect(company).toEqual({
      associateMode: 'Explicit',
      associates: [
        {
          roles: [],
          associateRoleAssignments: [
            { associateRoleRef: { key: 'purchaser' }, associateRole: { key: 'purchaser', permissions: ['CreateMyCarts'] }, inheritance: 'Enabled' },
          ],
        },
      ],
    });
    const division = (
      await merchant.gql(
        `mutation { createBusinessUnit(draft: { key: "gq-east", name: "East", unitType: Division, parentUnit: { key: "gq-acme" }, associates: [] }) {
        associateMode inheritedAssociates { customerRef { id } associateRoleAssignments { associateRoleRef { key } sourceRef { key } source { key } } } } }`,
      )
    ).createBusinessUnit;
    expect(division).toEqual({
      associateMode: 'ExplicitAndFromParent',
      inheritedAssociates: [
        {
          customerRef: { id: member.customerId },
          associateRoleAssignments: [{ associateRoleRef: { key: 'purchaser' }, sourceRef: { key: 'gq-acme' }, source: { key: 'gq-acme' } }],
        },
      ],
    });
    // §2.2's form still works, and answers the built-in role in both fields.
    const spec = (
      await merchant.gql(
        `mutation($customer: String!) { createBusinessUnit(draft: { key: "gq-spec", name: "Spec", unitType: Company, associates: [{ roles: [Buyer], customer: { id: $customer } }] }) {
        associates { roles associateRoleAssignments { associateRoleRef { key } associateRole { key } } } } }`,
        { customer: member.customerId },
      )
    ).createBusinessUnit;
    expect(spec.associates).toEqual([{ roles: ['Buyer'], associateRoleAssignments: [{ associateRoleRef: { key: 'Buyer' }, associateRole: null }] }]);
  });
});

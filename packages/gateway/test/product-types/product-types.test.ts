/**
 * Issue 28: the ProductType resource `/{projectKey}/product-types` (reference:
 * resources/product-types.raml, types/product-type): the versioned template's operations by id and
 * key, the draft with every AttributeType, `expand` of nested types, predicates and sort, the
 * scopes, and the change notifications delivered to an SQS subscription (the reference has no
 * ProductType messages). The update actions are in update-actions.test.ts.
 */
import type { SqsPeer } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerWith, type Caller, type Json } from '../carts/commerce.js';
import type { TestGateway } from '../support/gateway.js';
import { startSqsGateway, type SqsGateway } from '../support/sqs-gateway.js';
import { deliveriesAbout, labels, payloadOf, subscribedQueue } from '../subscriptions/support.js';
import { attribute, everyAttributeType } from './drafts.js';

const SETUP_MS = 180_000;
const P = 'product-types';

describe('ProductType /{projectKey}/product-types', { timeout: 60_000 }, () => {
  let setup: SqsGateway | undefined;
  let sqs: SqsPeer;
  let gateway: TestGateway;
  let admin: Caller;
  let viewer: Caller;
  let productsViewer: Caller;
  let dimensions: Json;

  beforeAll(async () => {
    setup = await startSqsGateway(P, ['manage_product_types', 'manage_subscriptions']);
    ({ sqs, gateway, admin } = setup);
    viewer = await callerWith(gateway, P, ['view_product_types']);
    productsViewer = await callerWith(gateway, P, ['view_products']);
    dimensions = await admin.ok(
      `/${P}/product-types`,
      {
        key: 'dimensions',
        name: 'Dimensions',
        description: 'Width and height',
        attributes: [attribute('width', { name: 'number' }, { isRequired: true }), attribute('height', { name: 'number' })],
      },
      201,
    );
  }, SETUP_MS);
  afterAll(() => setup?.close());

  it('creates a ProductType with every AttributeType and the reference defaults; reads it by id, key and query', async () => {
    const created = await admin.ok(
      `/${P}/product-types`,
      {
        key: 'furniture',
        name: 'Furniture',
        description: 'Tables and chairs',
        attributes: everyAttributeType(dimensions.id as string),
      },
      201,
    );
    expect(created).toMatchObject({ version: 1, key: 'furniture', name: 'Furniture', description: 'Tables and chairs' });
    expect(created.attributes.map((definition: Json) => definition.name)).toEqual([
      'is-new',
      'title',
      'claim',
      'colour',
      'finish',
      'weight',
      'price-hint',
      'available-from',
      'opens-at',
      'launch',
      'maker',
      'tags',
      'tag-matrix',
      'size',
      'sizes',
    ]);
    // AttributeDefinitionDraft defaults: level Variant, attributeConstraint None, inputHint SingleLine, isSearchable true.
    expect(created.attributes[0]).toEqual({
      name: 'is-new',
      label: { en: 'is-new' },
      type: { name: 'boolean' },
      isRequired: false,
      level: 'Variant',
      attributeConstraint: 'None',
      inputHint: 'SingleLine',
      isSearchable: true,
    });
    // A nested attribute is not searchable (AttributeNestedType); its reference is by id.
    const size = created.attributes.find((definition: Json) => definition.name === 'size');
    expect(size).toMatchObject({ type: { name: 'nested', typeReference: { typeId: 'product-type', id: dimensions.id } }, isSearchable: false });
    expect(created.attributes.find((definition: Json) => definition.name === 'claim')).toMatchObject({
      inputHint: 'MultiLine',
      inputTip: { en: 'A sentence' },
      level: 'Product',
      attributeConstraint: 'None',
    });

    expect(await viewer.read(`/${P}/product-types/${created.id}`)).toEqual(created);
    expect(await viewer.read(`/${P}/product-types/key=furniture`)).toEqual(created);
    // The reference's securedBy: view_products reads product types too.
    expect(await productsViewer.read(`/${P}/product-types/key=furniture`)).toEqual(created);
  });

  it('answers predicates on attributes and sorts by name', async () => {
    await admin.ok(
      `/${P}/product-types`,
      { key: 'lamps', name: 'Lamps', description: 'Light', attributes: [attribute('colour', { name: 'enum', values: [{ key: 'red', label: 'Red' }] })] },
      201,
    );
    const byAttribute = await viewer.read(
      `/${P}/product-types?where=${encodeURIComponent('attributes(name = "colour" and type(name = "enum"))')}&sort=name%20desc`,
    );
    expect(byAttribute.results.map((found: Json) => found.key)).toEqual(['lamps', 'furniture']);
    const byName = await viewer.read(`/${P}/product-types?where=${encodeURIComponent('name = "Dimensions"')}`);
    expect(byName.results.map((found: Json) => found.key)).toEqual(['dimensions']);
    const sorted = await viewer.read(`/${P}/product-types?sort=name%20asc&limit=2`);
    expect(sorted.results.map((found: Json) => found.name)).toEqual(['Dimensions', 'Furniture']);
  });

  it('expands the ProductType of a nested attribute, also inside sets', async () => {
    const expanded = await viewer.read(
      `/${P}/product-types/key=furniture?expand=attributes[*].type.typeReference&expand=attributes[*].type.elementType.typeReference`,
    );
    const size = expanded.attributes.find((definition: Json) => definition.name === 'size');
    const sizes = expanded.attributes.find((definition: Json) => definition.name === 'sizes');
    expect(size.type.typeReference.obj).toMatchObject({ id: dimensions.id, key: 'dimensions' });
    expect(sizes.type.elementType.typeReference.obj).toMatchObject({ id: dimensions.id, key: 'dimensions' });
  });

  it('refuses bad drafts with 400s in the error shape and the official codes', async () => {
    const base = { name: 'Bad', description: 'Bad' };
    const withAttribute = (definition: Json) => ({ ...base, attributes: [definition] });
    const valid = attribute('fine', { name: 'text' });
    const cases: Array<[string, unknown, string]> = [
      ['not an object', [], 'InvalidInput'],
      ['name missing', { description: 'x' }, 'RequiredField'],
      ['description missing', { name: 'x' }, 'RequiredField'],
      ['name not a string', { ...base, name: 3 }, 'InvalidInput'],
      ['description not a string', { ...base, description: { en: 'x' } }, 'InvalidInput'],
      ['key too short', { ...base, key: 'x' }, 'InvalidInput'],
      ['key with a space', { ...base, key: 'a b' }, 'InvalidInput'],
      ['attributes not an array', { ...base, attributes: {} }, 'InvalidInput'],
      ['attribute not an object', { ...base, attributes: ['x'] }, 'InvalidInput'],
      ['attribute type missing', withAttribute({ ...valid, type: undefined }), 'RequiredField'],
      ['attribute name missing', withAttribute({ ...valid, name: undefined }), 'RequiredField'],
      ['attribute label missing', withAttribute({ ...valid, label: undefined }), 'RequiredField'],
      ['attribute isRequired missing', withAttribute({ ...valid, isRequired: undefined }), 'RequiredField'],
      ['attribute name pattern', withAttribute({ ...valid, name: 'no spaces' }), 'InvalidInput'],
      ['attribute name too short', withAttribute({ ...valid, name: 'a' }), 'InvalidInput'],
      ['attribute name too long', withAttribute({ ...valid, name: 'a'.repeat(257) }), 'InvalidInput'],
      ['attribute label not localized', withAttribute({ ...valid, label: 'Label' }), 'InvalidInput'],
      ['attribute isRequired not a boolean', withAttribute({ ...valid, isRequired: 'no' }), 'InvalidInput'],
      ['unknown AttributeType', withAttribute({ ...valid, type: { name: 'String' } }), 'InvalidInput'],
      ['AttributeType not an object', withAttribute({ ...valid, type: 'text' }), 'InvalidInput'],
      ['enum without values', withAttribute({ ...valid, type: { name: 'enum' } }), 'InvalidInput'],
      ['enum value without key', withAttribute({ ...valid, type: { name: 'enum', values: [{ label: 'A' }] } }), 'InvalidInput'],
      ['lenum value with a plain label', withAttribute({ ...valid, type: { name: 'lenum', values: [{ key: 'a', label: 'A' }] } }), 'InvalidInput'],
      [
        'enum keys twice',
        withAttribute({
          ...valid,
          type: {
            name: 'enum',
            values: [
              { key: 'a', label: 'A' },
              { key: 'a', label: 'B' },
            ],
          },
        }),
        'DuplicateEnumValues',
      ],
      ['reference to an unknown type id', withAttribute({ ...valid, type: { name: 'reference', referenceTypeId: 'payment' } }), 'InvalidInput'],
      ['reference without a type id', withAttribute({ ...valid, type: { name: 'reference' } }), 'InvalidInput'],
      ['set without elementType', withAttribute({ ...valid, type: { name: 'set' } }), 'InvalidInput'],
      [
        'nested of a missing ProductType',
        withAttribute({ ...valid, type: { name: 'nested', typeReference: { typeId: 'product-type', id: 'missing' } } }),
        'ReferencedResourceNotFound',
      ],
      [
        'nested typeReference of another type',
        withAttribute({ ...valid, type: { name: 'nested', typeReference: { typeId: 'category', id: dimensions.id } } }),
        'InvalidInput',
      ],
      [
        'six sets around a nested type',
        withAttribute({ ...valid, type: sets(6, { name: 'nested', typeReference: { typeId: 'product-type', id: dimensions.id } }) }),
        'InvalidInput',
      ],
      ['eleven sets', withAttribute({ ...valid, type: sets(11, { name: 'text' }) }), 'InvalidInput'],
      ['level unknown', withAttribute({ ...valid, level: 'Category' }), 'InvalidInput'],
      ['attributeConstraint unknown', withAttribute({ ...valid, attributeConstraint: 'Always' }), 'InvalidInput'],
      ['inputHint unknown', withAttribute({ ...valid, inputHint: 'Wide' }), 'InvalidInput'],
      ['inputTip not localized', withAttribute({ ...valid, inputTip: 'tip' }), 'InvalidInput'],
      ['isSearchable not a boolean', withAttribute({ ...valid, isSearchable: 1 }), 'InvalidInput'],
      ['Product level with a constraint', withAttribute({ ...valid, level: 'Product', attributeConstraint: 'SameForAll' }), 'InvalidOperation'],
      [
        'nested with a constraint',
        withAttribute({ ...valid, type: { name: 'nested', typeReference: { typeId: 'product-type', id: dimensions.id } }, attributeConstraint: 'Unique' }),
        'InvalidOperation',
      ],
      [
        'nested and searchable',
        withAttribute({ ...valid, type: { name: 'nested', typeReference: { typeId: 'product-type', id: dimensions.id } }, isSearchable: true }),
        'InvalidOperation',
      ],
      ['a required set', withAttribute({ ...valid, type: { name: 'set', elementType: { name: 'text' } }, isRequired: true }), 'InvalidOperation'],
      ['an attribute name twice', { ...base, attributes: [valid, valid] }, 'AttributeDefinitionAlreadyExists'],
      // `width` is a number in the ProductType `dimensions`.
      ['a name of another type elsewhere', withAttribute(attribute('width', { name: 'text' })), 'AttributeDefinitionTypeConflict'],
      ['a key in use', { ...base, key: 'dimensions' }, 'DuplicateField'],
    ];
    for (const [what, draft, code] of cases) {
      const answer = await admin.post(`/${P}/product-types`, draft);
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.body, what).toMatchObject({ statusCode: 400, errors: [{ code }] });
    }
    const conflict = await admin.post(`/${P}/product-types`, withAttribute(attribute('width', { name: 'text' })));
    expect(conflict.body.errors[0]).toMatchObject({
      conflictingProductTypeId: dimensions.id,
      conflictingProductTypeName: 'Dimensions',
      conflictingAttributeName: 'width',
    });
    const forbidden = await viewer.post(`/${P}/product-types`, { ...base, key: 'viewer-made' });
    expect(forbidden.status).toBe(403);
  });

  it('accepts the same name with other enum values in another ProductType (no type conflict)', async () => {
    const other = await admin.post(`/${P}/product-types`, {
      name: 'Shades',
      description: 'Other colours',
      attributes: [attribute('colour', { name: 'enum', values: [{ key: 'blue', label: 'Blue' }] })],
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
  });

  it('refuses to delete a ProductType that another one nests (400 ReferenceExists), deletes it once unnested', async () => {
    const inner = await admin.ok(`/${P}/product-types`, { key: 'inner', name: 'Inner', description: 'Nested', attributes: [] }, 201);
    const outer = await admin.ok(
      `/${P}/product-types`,
      {
        key: 'outer',
        name: 'Outer',
        description: 'Nests',
        attributes: [attribute('inner-sets', sets(2, { name: 'nested', typeReference: { typeId: 'product-type', key: 'inner' } }))],
      },
      201,
    );
    const refused = await admin.delete(`/${P}/product-types/${inner.id}?version=1`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'ReferenceExists', referencedBy: 'product-type' });
    await admin.update(`/${P}/product-types/${outer.id}`, 1, [{ action: 'removeAttributeDefinition', name: 'inner-sets' }]);
    const deleted = await admin.delete(`/${P}/product-types/key=inner?version=1`);
    expect(deleted.status).toBe(200);
    expect((await viewer.get(`/${P}/product-types/${inner.id}`)).status).toBe(404);
  });

  it('delivers its change notifications to an SQS subscription, in sequence (the reference has no ProductType messages)', async () => {
    const queue = await subscribedQueue(sqs, admin, P, 'product-type');

    const created = await admin.ok(`/${P}/product-types`, { key: 'delivered', name: 'Delivered', description: 'D' }, 201);
    await admin.update(`/${P}/product-types/${created.id}`, 1, [
      { action: 'changeName', name: 'Delivered, renamed' },
      { action: 'addAttributeDefinition', attribute: attribute('note', { name: 'text' }) },
    ]);
    await admin.update(`/${P}/product-types/${created.id}`, 2, [{ action: 'changeDescription', description: 'Changed' }]);
    await admin.delete(`/${P}/product-types/${created.id}?version=3`);

    const documents = await deliveriesAbout(sqs, queue, created.id as string, 4);
    const id = created.id as string;
    expect(labels(documents)).toEqual(
      [
        `product-type:${id}:ResourceCreated:1`,
        `product-type:${id}:ResourceUpdated:2`,
        `product-type:${id}:ResourceUpdated:3`,
        `product-type:${id}:ResourceDeleted:3`,
      ].sort(),
    );
    const updates = documents.map(payloadOf).filter((payload) => payload.notificationType === 'ResourceUpdated');
    expect(updates.map((payload) => [payload.version, payload.oldVersion])).toEqual(
      expect.arrayContaining([
        [2, 1],
        [3, 2],
      ]),
    );
  });
});

/** `count` sets around `innermost`. */
function sets(count: number, innermost: Json): Json {
  return count === 0 ? innermost : { name: 'set', elementType: sets(count - 1, innermost) };
}

// Not the product-types index: its ProductType definition imports the products' follow-up.
import { innermostType, type AttributeDefinition, type AttributeType } from '../product-types/product-type.js';
import type { UpdateAction } from '../shared/update-actions.js';
import type { Attribute } from './product.js';

/**
 * What a ProductType update action does to the products' attributes (reference types/product-type/
 * updates: removeAttributeDefinition "deletes all corresponding Attributes", changeAttributeName
 * "renames all corresponding Attributes", changeEnumKey "All Products will be updated to the new
 * key", change…EnumValueLabel "to the new label", removeEnumValues "the Attributes of all Products
 * using those enum keys will also be removed"). Pure: one attribute in, the attribute to keep (or
 * undefined to remove it) out. The actions arrive validated: the ProductType update succeeded.
 */
export type AttributeChange = (attribute: Attribute) => Attribute | undefined;

/** An enum value as products hold it: the key, as drafts may send it, or `{key, label}`. */
type EnumValue = string | { key: string; label?: unknown };

function keyOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const key = (value as { key?: unknown } | null)?.key;
  return typeof key === 'string' ? key : undefined;
}

/** The value's enum values: one, or the elements of a set (AttributeSetType of enum or lenum). */
function mapEnumValues(value: unknown, change: (one: EnumValue) => EnumValue): unknown {
  const changeOne = (one: unknown): unknown => (keyOf(one) === undefined ? one : change(one as EnumValue));
  return Array.isArray(value) ? value.map(changeOne) : changeOne(value);
}

function usesKeys(value: unknown, keys: readonly string[]): boolean {
  const values: unknown[] = Array.isArray(value) ? value : [value];
  return values.some((one) => keys.includes(keyOf(one) ?? ''));
}

/** Changes the value of the attribute `name` only; other attributes are kept as they are. */
function onAttribute(name: unknown, change: AttributeChange): AttributeChange {
  return (attribute) => (attribute.name === name ? change(attribute) : attribute);
}

function renamedKey(key: unknown, newKey: unknown): (one: EnumValue) => EnumValue {
  return (one) => {
    if (keyOf(one) !== key) return one;
    return typeof one === 'string' ? String(newKey) : { ...one, key: String(newKey) };
  };
}

function relabelled(newValue: unknown): (one: EnumValue) => EnumValue {
  const { key, label } = newValue as { key: string; label: unknown };
  // A value held as the bare key has no label to change.
  return (one) => (typeof one !== 'string' && one.key === key ? { ...one, label: structuredClone(label) } : one);
}

const CHANGES: Readonly<Record<string, (action: UpdateAction) => AttributeChange>> = {
  removeAttributeDefinition: (action) => onAttribute(action.name, () => undefined),
  changeAttributeName: (action) => onAttribute(action.attributeName, (attribute) => ({ ...attribute, name: String(action.newAttributeName) })),
  changeEnumKey: (action) =>
    onAttribute(action.attributeName, (attribute) => ({ ...attribute, value: mapEnumValues(attribute.value, renamedKey(action.key, action.newKey)) })),
  changePlainEnumValueLabel: (action) =>
    onAttribute(action.attributeName, (attribute) => ({ ...attribute, value: mapEnumValues(attribute.value, relabelled(action.newValue)) })),
  changeLocalizedEnumValueLabel: (action) =>
    onAttribute(action.attributeName, (attribute) => ({ ...attribute, value: mapEnumValues(attribute.value, relabelled(action.newValue)) })),
  removeEnumValues: (action) => onAttribute(action.attributeName, (attribute) => (usesKeys(attribute.value, action.keys as string[]) ? undefined : attribute)),
};

/** The attribute changes of `actions`, in their order (a rename then a removal of the new name …). */
export function attributeChangesOf(actions: readonly UpdateAction[]): AttributeChange[] {
  return actions.flatMap((action) => {
    const changeOf = CHANGES[action.action];
    return changeOf === undefined ? [] : [changeOf(action)];
  });
}

/** `attributes` after every change, in order. */
export function changedAttributes(attributes: readonly Attribute[], changes: readonly AttributeChange[]): Attribute[] {
  return changes.reduce<Attribute[]>(
    (current, change) => current.flatMap((attribute) => change(attribute) ?? []),
    attributes.map((attribute) => structuredClone(attribute)),
  );
}

/** `changes` applied to every nested Attribute list of `value`, a value of `type` (sets of nested values included). */
function changedNestedValue(type: AttributeType, value: unknown, changes: readonly AttributeChange[]): unknown {
  if (!Array.isArray(value)) return value;
  if (type.name === 'set') return value.map((element: unknown) => changedNestedValue(type.elementType, element, changes));
  return changedAttributes(value as Attribute[], changes);
}

/**
 * The changes of a nested ProductType reaching the types that nest it: each attribute of
 * `definitions` whose type nests `nestedTypeId` (AttributeNestedType, perhaps in sets) holds Attribute
 * lists of that type, and those follow `changes` as the nested type's own products do.
 */
export function nestedAttributeChanges(
  definitions: readonly AttributeDefinition[],
  nestedTypeId: string,
  changes: readonly AttributeChange[],
): AttributeChange[] {
  return definitions.flatMap(({ name, type }) => {
    const innermost = innermostType(type);
    if (innermost.name !== 'nested' || innermost.typeReference.id !== nestedTypeId) return [];
    return [onAttribute(name, (attribute) => ({ ...attribute, value: changedNestedValue(type, attribute.value, changes) }))];
  });
}

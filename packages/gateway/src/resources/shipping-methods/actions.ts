import { duplicateField, invalidOperation, requiredField } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import { customFieldActions } from '../shared/custom-fields.js';
import { keyReference } from '../shared/references.js';
import type { ActionHandlers } from '../shared/update-actions.js';
import { optionalKey, optionalString } from '../shared/validation.js';
import { methodName } from './draft.js';
import { booleanField, optionalLocalized, optionalPredicate, taxCategoryReference } from './fields.js';
import { SHIPPING_METHOD_TYPE_ID, type ShippingMethod } from './shipping-method.js';
import { assertStoreLimit, storeList } from './stores.js';
import { assertNoOtherDefault } from './uniqueness.js';
import { assertOneRatePerCurrency, shippingRateDraft, withoutRate, zoneRateOf, zoneReference } from './zone-rates.js';

type Optional = 'key' | 'localizedName' | 'description' | 'localizedDescription' | 'predicate' | 'carrier';

/** The reference's set* actions: a value sets the field, absent or null removes it. */
function setOrRemove<F extends Optional>(method: ShippingMethod, field: F, value: ShippingMethod[F] | undefined): void {
  if (value === undefined) delete method[field];
  else method[field] = value;
}

/** Zone and rate actions (types/shipping-method/updates): the zone must exist, a rate is per currency. */
function zoneActions(): ActionHandlers<ShippingMethod> {
  const addZone: ActionHandlers<ShippingMethod>[string] = async (method, action, { reader }) => {
    const zone = await zoneReference(reader.get, action.zone, 'zone');
    if (method.zoneRates.some((zoneRate) => zoneRate.zone.id === zone.id)) throw duplicateField('zone', zone);
    method.zoneRates.push({ zone, shippingRates: [] });
  };
  const removeZone: ActionHandlers<ShippingMethod>[string] = async (method, action, { reader }) => {
    const zone = await zoneReference(reader.get, action.zone, 'zone');
    zoneRateOf(method.zoneRates, zone);
    method.zoneRates = method.zoneRates.filter((zoneRate) => zoneRate.zone.id !== zone.id);
  };
  return {
    addZone,
    removeZone,
    // The names of Herald's brief for addZone/removeZone; the reference's names are the ones above.
    addShippingZone: addZone,
    removeShippingZone: removeZone,
    async addShippingRate(method, action, { ctx, reader }) {
      const zoneRate = zoneRateOf(method.zoneRates, await zoneReference(reader.get, action.zone, 'zone'));
      const rate = shippingRateDraft(action.shippingRate, 'shippingRate', ctx.project);
      const rates = [...zoneRate.shippingRates, rate];
      assertOneRatePerCurrency(rates, 'shippingRate');
      zoneRate.shippingRates = rates;
    },
    async removeShippingRate(method, action, { ctx, reader }) {
      const zoneRate = zoneRateOf(method.zoneRates, await zoneReference(reader.get, action.zone, 'zone'));
      zoneRate.shippingRates = withoutRate(zoneRate, shippingRateDraft(action.shippingRate, 'shippingRate', ctx.project));
    },
  };
}

/** Store actions: ShippingMethod.stores holds StoreKeyReferences; an empty list makes the method global. */
function storeActions(): ActionHandlers<ShippingMethod> {
  return {
    async addStore(method, action, { reader }) {
      if (action.store === undefined || action.store === null) throw requiredField('store');
      const store = await keyReference(reader.get, 'store', action.store, 'store');
      if (method.stores.some((known) => known.key === store.key)) return;
      assertStoreLimit([...method.stores, store]);
      method.stores.push(store);
    },
    async removeStore(method, action, { reader }) {
      if (action.store === undefined || action.store === null) throw requiredField('store');
      const store = await keyReference(reader.get, 'store', action.store, 'store');
      if (!method.stores.some((known) => known.key === store.key)) throw invalidOperation(`The ShippingMethod is not in the Store '${store.key}'.`);
      method.stores = method.stores.filter((known) => known.key !== store.key);
    },
    async setStores(method, action, { reader }) {
      if (action.stores === undefined || action.stores === null) throw requiredField('stores');
      method.stores = await storeList(action.stores, 'stores', reader.get);
    },
  };
}

/**
 * Every ShippingMethodUpdateAction of the reference. The reference has no ShippingMethod messages
 * (types/message has none), so no action returns one; every change is a change notification.
 */
export function shippingMethodActions(documents: DocumentStore): ActionHandlers<ShippingMethod> {
  return {
    ...zoneActions(),
    ...storeActions(),
    changeName(method, action) {
      // A name another method holds is refused by the store's claim (uniqueness.ts).
      method.name = methodName(action);
    },
    setLocalizedName: (method, action) => setOrRemove(method, 'localizedName', optionalLocalized(action.localizedName, 'localizedName')),
    setDescription: (method, action) => setOrRemove(method, 'description', optionalString(action.description, 'description')),
    setLocalizedDescription: (method, action) =>
      setOrRemove(method, 'localizedDescription', optionalLocalized(action.localizedDescription, 'localizedDescription')),
    async changeTaxCategory(method, action, { reader }) {
      method.taxCategory = await taxCategoryReference(reader.get, action.taxCategory, 'taxCategory');
    },
    async changeIsDefault(method, action, { ctx }) {
      const isDefault = booleanField(action.isDefault, 'isDefault');
      if (isDefault && !method.isDefault) await assertNoOtherDefault(documents.db, ctx.projectKey, method.id);
      method.isDefault = isDefault;
    },
    setPredicate: (method, action) => setOrRemove(method, 'predicate', optionalPredicate(action.predicate)),
    changeActive(method, action) {
      method.active = booleanField(action.active, 'active');
    },
    setKey: (method, action) => setOrRemove(method, 'key', optionalKey(action.key)),
    setCarrier: (method, action) => setOrRemove(method, 'carrier', optionalString(action.carrier, 'carrier', 256)),
    // The reference has no ShippingMethodCustom* messages.
    ...customFieldActions<ShippingMethod>(SHIPPING_METHOD_TYPE_ID, { messages: false }),
  };
}

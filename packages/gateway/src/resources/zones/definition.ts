import { requiredField } from '@herald/model';
import type { DocumentStore, ServerFields } from '@herald/store';
import { asDraft, optionalKey, optionalString, requiredString } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { location, sameLocation } from './location.js';
import { assertLocationsFree, duplicateLocation, locationList, withoutLocation } from './locations.js';
import { ZONE_TYPE_ID, type Zone } from './zone.js';

/**
 * `/{projectKey}/zones` (reference: resources/zones.raml, types/zone). The reference has no Zone
 * messages: changes are notified only. Its delete names no ReferenceExists rule, so none is applied.
 * `documents` answers whether another Zone holds a Location.
 */
export function zoneDefinition(documents: DocumentStore): ResourceDefinition<Zone> {
  return {
    typeId: ZONE_TYPE_ID,
    path: 'zones',
    // resources/zones.raml securedBy: view_zones or view_orders; manage_zones or manage_orders.
    scopes: { view: ['view_zones', 'view_orders'], manage: ['manage_zones', 'manage_orders'] },

    async fromDraft(body, ctx) {
      const draft = asDraft(body, 'ZoneDraft');
      const fields: Omit<Zone, ServerFields> = {
        name: requiredString(draft, 'name'),
        locations: locationList(draft.locations, 'locations'),
      };
      const key = optionalKey(draft.key);
      if (key !== undefined) fields.key = key;
      const description = optionalString(draft.description, 'description');
      if (description !== undefined) fields.description = description;
      await assertLocationsFree(documents.db, ctx.projectKey, fields.locations);
      return fields;
    },

    actions: {
      async addLocation(zone, action, { ctx }) {
        if (action.location === undefined || action.location === null) throw requiredField('location');
        const added = location(action.location, 'location');
        if (zone.locations.some((known) => sameLocation(known, added))) throw duplicateLocation(added);
        await assertLocationsFree(documents.db, ctx.projectKey, [added], zone.id);
        zone.locations.push(added);
      },
      removeLocation(zone, action) {
        if (action.location === undefined || action.location === null) throw requiredField('location');
        zone.locations = withoutLocation(zone.locations, location(action.location, 'location'), zone.name);
      },
      changeName(zone, action) {
        zone.name = requiredString(action, 'name');
      },
      setDescription(zone, action) {
        const description = optionalString(action.description, 'description');
        if (description === undefined) delete zone.description;
        else zone.description = description;
      },
      setKey(zone, action) {
        const key = optionalKey(action.key);
        if (key === undefined) delete zone.key;
        else zone.key = key;
      },
    },
  };
}

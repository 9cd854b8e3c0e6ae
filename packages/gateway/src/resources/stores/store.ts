import type { BaseResource, CustomFields, LocalizedString } from '@herald/model';

/** A Store (§4.4 template resource): key, name, languages, custom fields. */
export interface Store extends BaseResource {
  key: string;
  name?: LocalizedString;
  languages: string[];
  custom?: CustomFields;
}

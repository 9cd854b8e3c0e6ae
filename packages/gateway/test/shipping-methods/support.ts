import type { Caller, Json } from '../carts/commerce.js';

export const usd = (centAmount: number) => ({ currencyCode: 'USD', centAmount });

/** A tax category and two Zones (DE; the US with a California-only Zone) for a project's shipping methods. */
export async function seedCatalogue(admin: Caller, projectKey: string): Promise<{ taxCategory: Json; europe: Json; us: Json; california: Json }> {
  const taxCategory = await admin.ok(`/${projectKey}/tax-categories`, { key: 'standard', name: 'Standard', rates: [] }, 201);
  const europe = await admin.ok(`/${projectKey}/zones`, { key: 'europe', name: 'Europe', locations: [{ country: 'DE' }, { country: 'AT' }] }, 201);
  const us = await admin.ok(`/${projectKey}/zones`, { key: 'us', name: 'US', locations: [{ country: 'US' }] }, 201);
  const california = await admin.ok(`/${projectKey}/zones`, { key: 'california', name: 'California', locations: [{ country: 'US', state: 'CA' }] }, 201);
  return { taxCategory, europe, us, california };
}

export const taxCategoryKey = { typeId: 'tax-category', key: 'standard' };
export const zoneKey = (key: string) => ({ typeId: 'zone', key });

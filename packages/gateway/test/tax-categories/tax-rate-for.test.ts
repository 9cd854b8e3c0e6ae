/**
 * Issue 28: `taxRateFor`, what cart pricing will use to find the TaxRate of a line item: the rate
 * of the address's country and state, else the rate of its country without a state.
 */
import { describe, expect, it } from 'vitest';
import type { TaxRate } from '../../src/resources/tax-categories/tax-category.js';
import { taxRateFor } from '../../src/resources/tax-categories/tax-rate-for.js';

const rate = (id: string, country: string, amount: number, state?: string): TaxRate => ({
  id,
  name: id,
  amount,
  includedInPrice: true,
  country,
  ...(state === undefined ? {} : { state }),
});

const germany = rate('de', 'DE', 0.19);
const newYork = rate('ny', 'US', 0.08875, 'New York');
const usa = rate('us', 'US', 0.05);
const category = { rates: [newYork, germany, usa] };

describe('taxRateFor', () => {
  it('takes the rate of the country and state before the rate of the country', () => {
    expect(taxRateFor(category, { country: 'US', state: 'New York' })).toBe(newYork);
    expect(taxRateFor({ rates: [usa, newYork] }, { country: 'US', state: 'New York' })).toBe(newYork);
  });

  it('takes the country rate for another state, no state or an empty state', () => {
    expect(taxRateFor(category, { country: 'US', state: 'Ohio' })).toBe(usa);
    expect(taxRateFor(category, { country: 'US' })).toBe(usa);
    expect(taxRateFor(category, { country: 'US', state: '' })).toBe(usa);
    expect(taxRateFor(category, { country: 'DE', state: 'Bayern' })).toBe(germany);
  });

  it('finds none for a country without rates, or where only other states have one', () => {
    expect(taxRateFor(category, { country: 'FR' })).toBeUndefined();
    expect(taxRateFor({ rates: [newYork] }, { country: 'US', state: 'Ohio' })).toBeUndefined();
    expect(taxRateFor({ rates: [newYork] }, { country: 'US' })).toBeUndefined();
    expect(taxRateFor({ rates: [newYork] }, { country: 'US', state: 'new york' })).toBeUndefined();
    expect(taxRateFor({ rates: [] }, { country: 'DE' })).toBeUndefined();
  });
});

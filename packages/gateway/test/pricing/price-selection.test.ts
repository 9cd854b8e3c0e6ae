/**
 * Issue 28: `selectPrice` and `unitPriceForQuantity`, the reference's price selection (Price.raml,
 * PriceTier.raml). Examples for each rule, then properties against a brute-force selection that
 * walks the reference's fallback list literally.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectPrice, unitPriceForQuantity, type PriceCriteria, type SelectablePrice } from '../../src/resources/shared/price-selection.js';

interface TestPrice extends SelectablePrice {
  name: string;
  value: { currencyCode: string; centAmount: number };
}

const NOW = new Date('2024-06-15T12:00:00.000Z');
const price = (name: string, scope: Partial<Omit<TestPrice, 'name' | 'value'>> = {}, currencyCode = 'EUR'): TestPrice => ({
  name,
  value: { currencyCode, centAmount: 100 },
  ...scope,
});
const select = (prices: TestPrice[], criteria: PriceCriteria): string | undefined => selectPrice(prices, criteria, NOW)?.name;

describe('selectPrice', () => {
  it('requires the currency and finds nothing without a price in it', () => {
    expect(select([price('usd', {}, 'USD'), price('eur')], { currency: 'EUR' })).toBe('eur');
    expect(select([price('usd', {}, 'USD')], { currency: 'EUR' })).toBeUndefined();
  });

  it('never picks a price scoped to a country, group or channel the criteria do not name', () => {
    const scoped = [price('de', { country: 'DE' }), price('group', { customerGroup: { id: 'g' } }), price('channel', { channel: { id: 'c' } })];
    expect(select(scoped, { currency: 'EUR' })).toBeUndefined();
    expect(select(scoped, { currency: 'EUR', country: 'FR', customerGroupId: 'other', channelId: 'other' })).toBeUndefined();
  });

  it('falls back from the most specific scope: group, then channel, then country, then none', () => {
    const all = [
      price('none'),
      price('country', { country: 'DE' }),
      price('channel', { channel: { id: 'c' } }),
      price('channel+country', { channel: { id: 'c' }, country: 'DE' }),
      price('group', { customerGroup: { id: 'g' } }),
      price('group+country', { customerGroup: { id: 'g' }, country: 'DE' }),
      price('group+channel', { customerGroup: { id: 'g' }, channel: { id: 'c' } }),
      price('group+channel+country', { customerGroup: { id: 'g' }, channel: { id: 'c' }, country: 'DE' }),
    ];
    const criteria = { currency: 'EUR', country: 'DE', customerGroupId: 'g', channelId: 'c' };
    const picked: string[] = [];
    let remaining = [...all];
    while (remaining.length > 0) {
      const name = select(remaining, criteria);
      if (name === undefined) break;
      picked.push(name);
      remaining = remaining.filter((candidate) => candidate.name !== name);
    }
    expect(picked).toEqual(['group+channel+country', 'group+channel', 'group+country', 'group', 'channel+country', 'channel', 'country', 'none']);
  });

  it('honours validFrom and validUntil, and prefers a dated price within one level', () => {
    const past = price('past', { validUntil: '2024-06-01T00:00:00.000Z' });
    const future = price('future', { validFrom: '2024-07-01T00:00:00.000Z' });
    const current = price('current', { validFrom: '2024-06-01T00:00:00.000Z', validUntil: '2024-07-01T00:00:00.000Z' });
    expect(select([past, future], { currency: 'EUR' })).toBeUndefined();
    expect(select([price('undated'), current], { currency: 'EUR' })).toBe('current');
    expect(select([current, price('undated')], { currency: 'EUR' })).toBe('current');
    // A more specific level still wins over a dated price of a less specific one.
    expect(select([current, price('de', { country: 'DE' })], { currency: 'EUR', country: 'DE' })).toBe('de');
    expect(select([price('edge', { validFrom: NOW.toISOString(), validUntil: NOW.toISOString() })], { currency: 'EUR' })).toBe('edge');
  });
});

describe('unitPriceForQuantity', () => {
  const tiered = {
    value: 1000,
    tiers: [
      { minimumQuantity: 10, value: 800 },
      { minimumQuantity: 5, value: 900 },
    ],
  };

  it('takes the highest tier the quantity reaches, else the base value', () => {
    expect([1, 4, 5, 9, 10, 1000].map((quantity) => unitPriceForQuantity(tiered, quantity))).toEqual([1000, 1000, 900, 900, 800, 800]);
    expect(unitPriceForQuantity({ value: 1000 }, 50)).toBe(1000);
  });

  it('ignores tiers when the price is discounted', () => {
    expect(unitPriceForQuantity({ ...tiered, discounted: { value: 700 } }, 10)).toBe(700);
  });
});

// ---- properties against an independent, literal selection ----

/** The reference's fallback list, most specific first: which dimensions a price of that level names. */
const FALLBACK_LEVELS: ReadonlyArray<{ group: boolean; channel: boolean; country: boolean }> = [
  { group: true, channel: true, country: true },
  { group: true, channel: true, country: false },
  { group: true, channel: false, country: true },
  { group: true, channel: false, country: false },
  { group: false, channel: true, country: true },
  { group: false, channel: true, country: false },
  { group: false, channel: false, country: true },
  { group: false, channel: false, country: false },
];

function bruteForce(prices: readonly TestPrice[], criteria: PriceCriteria, now: Date): TestPrice | undefined {
  const valid = prices.filter(
    (candidate) =>
      candidate.value.currencyCode === criteria.currency &&
      (candidate.validFrom === undefined || new Date(candidate.validFrom) <= now) &&
      (candidate.validUntil === undefined || new Date(candidate.validUntil) >= now),
  );
  for (const level of FALLBACK_LEVELS) {
    const atLevel = valid.filter(
      (candidate) =>
        (level.group
          ? candidate.customerGroup !== undefined && candidate.customerGroup.id === criteria.customerGroupId
          : candidate.customerGroup === undefined) &&
        (level.channel ? candidate.channel !== undefined && candidate.channel.id === criteria.channelId : candidate.channel === undefined) &&
        (level.country ? candidate.country !== undefined && candidate.country === criteria.country : candidate.country === undefined),
    );
    const dated = atLevel.find((candidate) => candidate.validFrom !== undefined || candidate.validUntil !== undefined);
    if (dated !== undefined) return dated;
    if (atLevel.length > 0) return atLevel[0];
  }
  return undefined;
}

const optional = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arbitrary, { nil: undefined });
const day = fc.integer({ min: 10, max: 20 }).map((n) => `2024-06-${n}T12:00:00.000Z`);

const priceArbitrary: fc.Arbitrary<TestPrice> = fc
  .record({
    name: fc.uuid(),
    currency: fc.constantFrom('EUR', 'USD'),
    country: optional(fc.constantFrom('DE', 'FR')),
    group: optional(fc.constantFrom('g1', 'g2')),
    channel: optional(fc.constantFrom('c1', 'c2')),
    validFrom: optional(day),
    validUntil: optional(day),
  })
  .map(({ name, currency, country, group, channel, validFrom, validUntil }) => ({
    name,
    value: { currencyCode: currency, centAmount: 100 },
    ...(country === undefined ? {} : { country }),
    ...(group === undefined ? {} : { customerGroup: { id: group } }),
    ...(channel === undefined ? {} : { channel: { id: channel } }),
    ...(validFrom === undefined ? {} : { validFrom }),
    ...(validUntil === undefined ? {} : { validUntil }),
  }));

const criteriaArbitrary: fc.Arbitrary<PriceCriteria> = fc
  .record({
    currency: fc.constantFrom('EUR', 'USD'),
    country: optional(fc.constantFrom('DE', 'FR', 'IT')),
    customerGroupId: optional(fc.constantFrom('g1', 'g2', 'g3')),
    channelId: optional(fc.constantFrom('c1', 'c2', 'c3')),
  })
  .map((criteria) => Object.fromEntries(Object.entries(criteria).filter(([, value]) => value !== undefined)) as unknown as PriceCriteria);

describe('selectPrice, properties', () => {
  it('picks what the literal fallback list picks, when the price scopes are distinct as the platform requires', () => {
    // The platform refuses two prices with the same scope (DuplicatePriceScope), dated or not, so
    // the generated lists keep one price per (currency, country, group, channel, dated?).
    const scopeOf = (p: TestPrice) =>
      [p.value.currencyCode, p.country, p.customerGroup?.id, p.channel?.id, p.validFrom !== undefined || p.validUntil !== undefined].join('|');
    const prices = fc.uniqueArray(priceArbitrary, { selector: scopeOf, maxLength: 40 });
    fc.assert(
      fc.property(prices, criteriaArbitrary, day, (list, criteria, at) => {
        const now = new Date(at);
        expect(selectPrice(list, criteria, now)?.name).toBe(bruteForce(list, criteria, now)?.name);
      }),
      { numRuns: 500 },
    );
  });

  it('only ever picks a price in the currency, valid now, whose every scope the criteria name', () => {
    fc.assert(
      fc.property(fc.array(priceArbitrary, { maxLength: 30 }), criteriaArbitrary, day, (list, criteria, at) => {
        const now = new Date(at);
        const picked = selectPrice(list, criteria, now);
        if (picked === undefined) {
          expect(bruteForce(list, criteria, now)).toBeUndefined();
          return;
        }
        expect(picked.value.currencyCode).toBe(criteria.currency);
        expect(picked.country === undefined || picked.country === criteria.country).toBe(true);
        expect(picked.customerGroup === undefined || picked.customerGroup.id === criteria.customerGroupId).toBe(true);
        expect(picked.channel === undefined || picked.channel.id === criteria.channelId).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a tier is chosen only when reached, and the highest reached one', () => {
    const tiers = fc
      .uniqueArray(fc.integer({ min: 2, max: 50 }), { maxLength: 8 })
      .map((quantities) => quantities.map((q) => ({ minimumQuantity: q, value: q * 10 })));
    fc.assert(
      fc.property(tiers, fc.integer({ min: 1, max: 60 }), (list, quantity) => {
        const reached = list.filter((tier) => tier.minimumQuantity <= quantity).map((tier) => tier.minimumQuantity);
        const expected = reached.length === 0 ? 1 : Math.max(...reached) * 10;
        expect(unitPriceForQuantity({ value: 1, tiers: list }, quantity)).toBe(expected);
      }),
    );
  });
});

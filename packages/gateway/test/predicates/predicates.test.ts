/**
 * Issue 29: the discount predicate language (cart, line item, custom line item and product
 * predicates) compiled once and evaluated in process. Tables of predicates against a cart and a
 * product price, malformed predicates with their positions, and a property test that prints random
 * predicates and checks the compiled result against a direct evaluation of what was printed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePredicate, PredicateSyntaxError, type PredicateKind } from '../../src/predicates/index.js';

const eur = (centAmount: number) => ({ currencyCode: 'EUR', centAmount, fractionDigits: 2 });

const cart = {
  currency: 'EUR',
  country: 'DE',
  totalPrice: eur(12_550),
  createdAt: '2024-05-01T10:00:00.000Z',
  customer: { id: 'c-1', email: 'ann@example.com', isEmailVerified: true },
  customerGroup: { id: 'g-1', key: 'gold' },
  shippingAddress: { country: 'DE', city: 'Berlin' },
  shippingInfo: { shippingMethodName: 'Express', price: eur(500), shippingMethod: { id: 'sm-1', key: 'express' } },
  custom: { type: { key: 't' }, fields: { vip: true, tags: ['a', 'b'], level: 3, note: '' } },
  lineItems: [
    {
      sku: 'SHIRT-1',
      productId: 'p-1',
      product: { id: 'p-1', key: 'shirt' },
      quantity: 3,
      price: eur(2_000),
      totalPrice: eur(6_000),
      taxedPrice: { totalNet: eur(5_042), totalGross: eur(6_000) },
      attributes: [
        { name: 'color', value: { key: 'red', label: 'Red' } },
        { name: 'size', value: 'L' },
        { name: 'tags', value: ['cotton', 'summer'] },
      ],
      categories: [
        { id: 'cat-1', key: 'shirts' },
        { id: 'cat-2', key: 'sale' },
      ],
      name: { en: 'Shirt', de: 'Hemd' },
    },
    {
      sku: 'SOCK-1',
      productId: 'p-2',
      product: { id: 'p-2', key: 'socks' },
      quantity: 2,
      price: eur(275),
      totalPrice: eur(550),
      attributes: [{ name: 'size', value: 'M' }],
      categories: [{ id: 'cat-3', key: 'socks' }],
      name: { en: 'Socks' },
    },
  ],
  customLineItems: [{ name: { en: 'Gift wrap' }, slug: 'wrap', quantity: 1, money: eur(6_000), totalPrice: eur(6_000) }],
};

const productPrice = {
  product: { id: 'p-1', key: 'shirt' },
  productType: { id: 'pt-1', key: 'apparel' },
  variant: { id: 1, key: 'v1' },
  sku: 'SHIRT-1',
  attributes: [{ name: 'brand', value: 'Acme' }],
  price: eur(2_000),
  centAmount: 2_000,
  amount: 20,
  currency: 'EUR',
  country: 'DE',
  customerGroup: { id: 'g-1', key: 'gold' },
  categories: [{ id: 'cat-1', key: 'shirts' }],
};

function holds(source: string, kind: PredicateKind, subject: Record<string, unknown>): boolean {
  return compilePredicate(source, kind).test(subject);
}

describe('discount predicates', () => {
  it('evaluates cart predicates as the platform documents them', () => {
    const cases: Array<[string, boolean]> = [
      ['1 = 1', true],
      ['1 = 2', false],
      ['true', true],
      ['currency = "EUR"', true],
      ['country != "DE"', false],
      ['country <> "FR"', true],
      ['totalPrice > "100.00 EUR"', true],
      ['totalPrice >= "125.50 EUR"', true],
      ['totalPrice > "125.50 EUR"', false],
      ['totalPrice.centAmount < 20000', true],
      // Money in another currency is not comparable: neither greater nor smaller.
      ['totalPrice > "1.00 USD" or totalPrice < "1.00 USD"', false],
      ['lineItemCount(1 = 1) = 5', true],
      ['lineItemCount(sku = "SHIRT-1") >= 3', true],
      ['lineItemTotal(categories.key contains "sale") = "60.00 EUR"', true],
      ['lineItemTotal(1 = 1) > "65 EUR"', true],
      ['lineItemNetTotal(sku = "SHIRT-1") = "50.42 EUR"', true],
      ['lineItemGrossTotal(1 = 1) = "60.00 EUR"', true],
      ['lineItemExists(attributes.color = "red")', true],
      ['lineItemExists(attributes.color.key = "blue")', false],
      ['forAllLineItems(quantity >= 2)', true],
      ['forAllLineItems(quantity >= 3)', false],
      ['customLineItemCount(slug = "wrap") = 1', true],
      ['customLineItemTotal(1 = 1) = "60.00 EUR"', true],
      ['customLineItemExists(name.en = "Gift wrap")', true],
      ['forAllCustomLineItems(money > "100.00 EUR")', false],
      ['customer.email = "ann@example.com" and customer.isEmailVerified = true', true],
      ['customerGroup.key in ("gold", "silver")', true],
      ['customerGroup.key not in ("gold", "silver")', false],
      ['shippingInfo.shippingMethodName = "Express" and shippingInfo.price = "5.00 EUR"', true],
      ['shippingAddress.city = "Berlin"', true],
      ['custom.fields.vip = true', true],
      ['custom.fields.tags contains "a"', true],
      ['custom.fields.tags contains any ("x", "b")', true],
      ['custom.fields.tags contains all ("a", "b")', true],
      ['custom.fields.tags contains all ("a", "z")', false],
      ['custom.fields.level > 2', true],
      ['custom.fields.note is empty', true],
      ['custom.fields.tags is not empty', true],
      ['custom.fields.missing is not defined', true],
      ['custom.fields.missing is defined', false],
      ['custom.fields.missing = "x"', false],
      ['custom.fields.missing != "x"', false],
      ['createdAt > "2024-01-01T00:00:00.000Z"', true],
      ['not (country = "DE")', false],
      ['NOT(country = "FR") AND (currency = "USD" OR currency = "EUR")', true],
      ['country = "FR" or country = "DE" and currency = "USD"', false],
      ['(country = "FR" or country = "DE") and currency = "EUR"', true],
    ];
    for (const [source, expected] of cases) expect(holds(source, 'cart', cart), source).toBe(expected);
  });

  it('evaluates line item and product predicates', () => {
    const [shirt] = cart.lineItems;
    const lineItem: Array<[string, boolean]> = [
      ['sku = "SHIRT-1"', true],
      ['productId = "p-1" and product.key = "shirt"', true],
      ['attributes.size in ("L", "XL")', true],
      ['attributes.tags contains "summer"', true],
      ['categories.id contains any ("cat-2", "cat-9")', true],
      ['categories.id = "cat-1"', true],
      ['price = "20.00 EUR" and quantity = 3', true],
      ['name.de = "Hemd"', true],
    ];
    for (const [source, expected] of lineItem) expect(holds(source, 'lineItem', shirt as Record<string, unknown>), source).toBe(expected);
    const product: Array<[string, boolean]> = [
      ['1 = 1', true],
      ['sku = "SHIRT-1"', true],
      ['product.id = "p-1" and variant.id = 1', true],
      ['productType.key = "apparel"', true],
      ['price >= "20.00 EUR" and centAmount = 2000 and amount = 20', true],
      ['currency = "USD"', false],
      ['attributes.brand = "Acme"', true],
      ['categories.key contains "shirts"', true],
      ['customerGroup.id = "g-1" and country = "DE"', true],
      ['channel.id is not defined', true],
    ];
    for (const [source, expected] of product) expect(holds(source, 'product', productPrice), source).toBe(expected);
  });

  it('refuses malformed predicates with the position of the fault', () => {
    const cases: Array<[string, PredicateKind, number, RegExp]> = [
      ['', 'cart', 0, /empty/],
      ['country = ', 'cart', 10, /Expected a value/],
      ['country = "DE', 'cart', 10, /Unterminated/],
      ['country == "DE"', 'cart', 9, /Expected a value/],
      ['country = "DE" and', 'cart', 18, /Expected a value/],
      ['(country = "DE"', 'cart', 15, /'\)'/],
      ['country = "DE")', 'cart', 14, /Unexpected '\)'/],
      ['country in "DE"', 'cart', 11, /'\('/],
      ['country is nothing', 'cart', 11, /'defined' or 'empty'/],
      ['colour = "red"', 'cart', 0, /Unknown field 'colour'/],
      ['lineItemCount(sku = "x")', 'cart', 0, /yields a number/],
      ['lineItemSum(1 = 1) > 2', 'cart', 0, /Unknown function/],
      ['lineItemCount(1 = 1) > 2', 'product', 0, /Unknown function/],
      ['1 = "1"', 'cart', 4, /Cannot compare a number with a string/],
      ['country = "DE" and true > false', 'cart', 19, /booleans/],
      ['country in (country)', 'cart', 12, /values only/],
      ['country = "DE" # x', 'cart', 15, /Unexpected character/],
      ['"DE"', 'cart', 0, /condition/],
      ['country = "DE"\n  and currency @ "EUR"', 'cart', 30, /Unexpected character/],
    ];
    for (const [source, kind, offset, reason] of cases) {
      let caught: unknown;
      try {
        compilePredicate(source, kind);
      } catch (error) {
        caught = error;
      }
      expect(caught, source).toBeInstanceOf(PredicateSyntaxError);
      const error = caught as PredicateSyntaxError;
      expect(error.position.offset, source).toBe(offset);
      expect(error.message, source).toMatch(reason);
    }
    const multiline = (() => {
      try {
        compilePredicate('country = "DE"\n  and currency @ "EUR"', 'cart');
      } catch (error) {
        return (error as PredicateSyntaxError).position;
      }
      return undefined;
    })();
    expect(multiline).toEqual({ offset: 30, line: 2, column: 16 });
  });

  it('lists the resources a predicate names by id', () => {
    const compiled = compilePredicate('customerGroup.id = "g-1" and lineItemExists(categories.id contains any ("c-1", "c-2") or productId = "p-9")', 'cart');
    expect(compiled.references).toEqual([
      { typeId: 'customer-group', id: 'g-1' },
      { typeId: 'category', id: 'c-1' },
      { typeId: 'category', id: 'c-2' },
      { typeId: 'product', id: 'p-9' },
    ]);
  });

  /**
   * Random predicates over a few numeric and string fields, printed as text, compiled, and evaluated
   * on random subjects; the expected value comes from evaluating the generated tree directly.
   */
  it('agrees with a direct evaluation of random predicates', () => {
    type Tree =
      | { op: 'and' | 'or'; left: Tree; right: Tree }
      | { op: 'not'; inner: Tree }
      | { op: 'cmp'; field: 'quantity' | 'level'; rel: '<' | '>' | '=' | '!=' | '<=' | '>='; value: number }
      | { op: 'in'; field: 'sku'; values: string[] };
    const leaf: fc.Arbitrary<Tree> = fc.oneof(
      fc.record({
        op: fc.constant('cmp' as const),
        field: fc.constantFrom('quantity' as const, 'level' as const),
        rel: fc.constantFrom('<' as const, '>' as const, '=' as const, '!=' as const, '<=' as const, '>=' as const),
        value: fc.integer({ min: -5, max: 5 }),
      }),
      fc.record({
        op: fc.constant('in' as const),
        field: fc.constant('sku' as const),
        values: fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }),
      }),
    );
    const tree = fc.letrec<{ tree: Tree }>((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({ op: fc.constantFrom('and' as const, 'or' as const), left: tie('tree'), right: tie('tree') }),
        fc.record({ op: fc.constant('not' as const), inner: tie('tree') }),
      ),
    })).tree;
    const print = (node: Tree): string => {
      switch (node.op) {
        case 'and':
        case 'or':
          return `(${print(node.left)}) ${node.op} (${print(node.right)})`;
        case 'not':
          return `not (${print(node.inner)})`;
        case 'cmp':
          return `${node.field === 'level' ? 'custom.level' : node.field} ${node.rel} ${node.value}`;
        case 'in':
          return `sku in (${node.values.map((value) => JSON.stringify(value)).join(', ')})`;
      }
    };
    type Subject = { quantity: number; level: number; sku: string };
    const direct = (node: Tree, subject: Subject): boolean => {
      switch (node.op) {
        case 'and':
          return direct(node.left, subject) && direct(node.right, subject);
        case 'or':
          return direct(node.left, subject) || direct(node.right, subject);
        case 'not':
          return !direct(node.inner, subject);
        case 'in':
          return node.values.includes(subject.sku);
        case 'cmp': {
          const actual = subject[node.field];
          const relations = {
            '<': actual < node.value,
            '>': actual > node.value,
            '=': actual === node.value,
            '!=': actual !== node.value,
            '<=': actual <= node.value,
            '>=': actual >= node.value,
          };
          return relations[node.rel];
        }
      }
    };
    const subject = fc.record({ quantity: fc.integer({ min: -5, max: 5 }), level: fc.integer({ min: -5, max: 5 }), sku: fc.constantFrom('a', 'b', 'c', 'd') });
    fc.assert(
      fc.property(tree, fc.array(subject, { minLength: 1, maxLength: 5 }), (generated, subjects) => {
        const compiled = compilePredicate(print(generated), 'lineItem');
        for (const each of subjects) expect(compiled.test({ ...each, custom: { level: each.level } })).toBe(direct(generated, each));
      }),
      { numRuns: 300 },
    );
  });
});

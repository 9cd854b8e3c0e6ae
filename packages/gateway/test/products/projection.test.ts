/** Issue 28: projectionOf (products/projection.ts), the pure ProductProjection of a product's staged or current data. */
import { describe, expect, it } from 'vitest';
import type { Product, ProductData } from '../../src/resources/products/product.js';
import { projectionOf } from '../../src/resources/products/projection.js';

function data(name: string): ProductData {
  const masterVariant = { id: 1, sku: `${name}-sku`, prices: [], attributes: [], images: [], assets: [] };
  return { name: { en: name }, slug: { en: name }, categories: [], masterVariant, variants: [], searchKeywords: {}, attributes: [] };
}

const product: Product = {
  id: 'p-1',
  version: 3,
  key: 'chair',
  createdAt: '2026-01-01T00:00:00.000Z',
  lastModifiedAt: '2026-01-02T00:00:00.000Z',
  productType: { typeId: 'product-type', id: 'pt-1' },
  taxCategory: { typeId: 'tax-category', id: 'tc-1' },
  priceMode: 'Embedded',
  masterData: { published: true, current: data('old-chair'), staged: data('new-chair'), hasStagedChanges: true },
};

describe('projectionOf', () => {
  it('flattens the staged data onto the product fields', () => {
    expect(projectionOf(product, { staged: true })).toEqual({
      id: 'p-1',
      version: 3,
      key: 'chair',
      productType: { typeId: 'product-type', id: 'pt-1' },
      taxCategory: { typeId: 'tax-category', id: 'tc-1' },
      priceMode: 'Embedded',
      hasStagedChanges: true,
      published: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      lastModifiedAt: '2026-01-02T00:00:00.000Z',
      ...data('new-chair'),
    });
  });

  it('takes the current data when not staged, and copies it (the product is not shared)', () => {
    const current = projectionOf(product, { staged: false });
    expect(current.name).toEqual({ en: 'old-chair' });
    expect(current.masterVariant.sku).toBe('old-chair-sku');
    current.masterVariant.sku = 'changed';
    expect(product.masterData.current.masterVariant.sku).toBe('old-chair-sku');
    expect('state' in current).toBe(false);
  });
});

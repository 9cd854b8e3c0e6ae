import { ApiError } from '@herald/model';
import { describe, expect, it } from 'vitest';
import {
  assertExpandPaths,
  expandReferences,
  expandReferencesInMany,
  MAX_EXPAND_PATHS,
  MAX_EXPANDED_REFERENCES,
  parseExpandPath,
  type ReferenceLoader,
} from '../../src/expand/index.js';

const ref = (typeId: string, id: string) => ({ typeId, id });

/** Reads a nested value of an expanded document: dig(doc, 'category', 'obj', 'id'). */
function dig(value: unknown, ...keys: Array<string | number>): unknown {
  return keys.reduce<unknown>(
    (current, key) => (typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined),
    value,
  );
}

/** Resources by type and id; `calls` records every batch the expansion asked for. */
function fakeStore(resources: Record<string, Record<string, unknown>>) {
  const calls: Array<{ typeId: string; ids: string[] }> = [];
  const loader: ReferenceLoader = async (typeId, ids) => {
    calls.push({ typeId, ids: [...ids].sort() });
    const found = new Map<string, unknown>();
    for (const id of ids) {
      const resource = resources[typeId]?.[id];
      if (resource !== undefined) found.set(id, resource);
    }
    return found;
  };
  return { loader, calls };
}

// A small category tree c0 ← c1 ← c2, products that reference categories, and a tax category.
const RESOURCES = {
  category: {
    c0: { id: 'c0', name: 'root' },
    c1: { id: 'c1', name: 'child', parent: ref('category', 'c0') },
    c2: { id: 'c2', name: 'grandchild', parent: ref('category', 'c1'), ancestors: [ref('category', 'c0'), ref('category', 'c1')] },
  },
  product: {
    p1: { id: 'p1', taxCategory: ref('tax-category', 't1'), categories: [ref('category', 'c2')] },
  },
  'tax-category': { t1: { id: 't1', rate: 0.19 } },
  odd: { notAnObject: 'just a string' },
};

describe('expandReferences: path forms (§4.4.7)', () => {
  it('expands a reference field', async () => {
    const { loader } = fakeStore(RESOURCES);
    const doc = { parent: ref('category', 'c1') };
    expect(await expandReferences(doc, ['parent'], loader)).toEqual({
      parent: { ...ref('category', 'c1'), obj: RESOURCES.category.c1 },
    });
  });

  it('expands every element with [*] and one element with [n]', async () => {
    const { loader } = fakeStore(RESOURCES);
    const doc = { ancestors: [ref('category', 'c0'), ref('category', 'c1'), ref('category', 'c2')] };
    const all = await expandReferences(doc, ['ancestors[*]'], loader);
    expect(all.ancestors.map((r) => (r as { obj?: { id: string } }).obj?.id)).toEqual(['c0', 'c1', 'c2']);
    const second = await expandReferences(doc, ['ancestors[1]'], loader);
    expect(second.ancestors.map((r) => (r as { obj?: { id: string } }).obj?.id)).toEqual([undefined, 'c1', undefined]);
    const outOfRange = await expandReferences(doc, ['ancestors[3]'], loader);
    expect(outOfRange).toEqual(doc);
  });

  it('expands a field of a nested object (obj.field)', async () => {
    const { loader } = fakeStore(RESOURCES);
    const doc = { shipping: { taxCategory: ref('tax-category', 't1') } };
    expect(await expandReferences(doc, ['shipping.taxCategory'], loader)).toEqual({
      shipping: { taxCategory: { ...ref('tax-category', 't1'), obj: { id: 't1', rate: 0.19 } } },
    });
  });

  it('expands a field of every element of an array of objects (objArray[*].field)', async () => {
    const { loader } = fakeStore(RESOURCES);
    const doc = { lineItems: [{ product: ref('product', 'p1') }, { product: ref('product', 'missing') }, { other: 1 }] };
    const expanded = await expandReferences(doc, ['lineItems[*].product'], loader);
    expect(expanded.lineItems[0]).toEqual({ product: { ...ref('product', 'p1'), obj: RESOURCES.product.p1 } });
    expect(expanded.lineItems[1]).toEqual({ product: ref('product', 'missing') });
    expect(expanded.lineItems[2]).toEqual({ other: 1 });
  });

  it('expands through nested arrays (nested[*][*].field)', async () => {
    const { loader } = fakeStore(RESOURCES);
    const doc = { grid: [[{ cell: ref('category', 'c0') }], [{ cell: ref('category', 'c1') }, { cell: ref('category', 'c2') }]] };
    const expanded = await expandReferences(doc, ['grid[*][*].cell'], loader);
    const ids = expanded.grid.flat().map((item) => (item.cell as { obj?: { id: string } }).obj?.id);
    expect(ids).toEqual(['c0', 'c1', 'c2']);
    const one = await expandReferences(doc, ['grid[1][0].cell'], loader);
    expect(one.grid.flat().map((item) => 'obj' in item.cell)).toEqual([false, true, false]);
  });
});

describe('expandReferences: through expanded objects', () => {
  it('resolves a.b inside a.obj, expanding a on the way', async () => {
    const { loader } = fakeStore(RESOURCES);
    const expanded = await expandReferences({ category: ref('category', 'c2') }, ['category.parent.parent'], loader);
    expect(dig(expanded, 'category', 'obj', 'parent', 'obj', 'parent', 'obj', 'id')).toBe('c0');
  });

  it('reads the explicit form ref.obj.field like the implicit one', async () => {
    const { loader } = fakeStore(RESOURCES);
    const doc = { category: ref('category', 'c2') };
    const implicit = await expandReferences(doc, ['category.parent'], loader);
    const explicit = await expandReferences(doc, ['category.obj.parent'], loader);
    expect(explicit).toEqual(implicit);
    expect(dig(implicit, 'category', 'obj', 'parent', 'obj')).toEqual(RESOURCES.category.c1);
  });

  it('combines paths: a and a.b give the same result as a.b alone, with one load per level', async () => {
    const { loader, calls } = fakeStore(RESOURCES);
    const doc = { category: ref('category', 'c2') };
    const both = await expandReferences(doc, ['category', 'category.ancestors[*]'], loader);
    expect(calls).toEqual([
      { typeId: 'category', ids: ['c2'] },
      { typeId: 'category', ids: ['c0', 'c1'] },
    ]);
    const alone = await expandReferences(doc, ['category.ancestors[*]'], fakeStore(RESOURCES).loader);
    expect(both).toEqual(alone);
  });

  it('goes on through references that already carry obj, without loading them again', async () => {
    const { loader, calls } = fakeStore(RESOURCES);
    const doc = { category: { ...ref('category', 'c1'), obj: { id: 'c1', parent: ref('category', 'c0') } } };
    const expanded = await expandReferences(doc, ['category.parent'], loader);
    expect(calls).toEqual([{ typeId: 'category', ids: ['c0'] }]);
    expect((expanded.category.obj.parent as { obj?: unknown }).obj).toEqual(RESOURCES.category.c0);
  });

  it('expands references of several types in the same level with one call per type', async () => {
    const { loader, calls } = fakeStore(RESOURCES);
    const doc = { product: ref('product', 'p1'), parent: ref('category', 'c0') };
    const expanded = await expandReferences(doc, ['product.taxCategory', 'product.categories[*]', 'parent'], loader);
    expect(calls.sort((a, b) => a.typeId.localeCompare(b.typeId))).toEqual([
      { typeId: 'category', ids: ['c0'] },
      { typeId: 'category', ids: ['c2'] },
      { typeId: 'product', ids: ['p1'] },
      { typeId: 'tax-category', ids: ['t1'] },
    ]);
    expect(dig(expanded, 'product', 'obj', 'taxCategory', 'obj')).toEqual({ id: 't1', rate: 0.19 });
    expect(dig(expanded, 'product', 'obj', 'categories', 0, 'obj', 'id')).toBe('c2');
  });

  it('follows a reference cycle only as deep as the path', async () => {
    const cyclic = { node: { a: { id: 'a', next: ref('node', 'b') }, b: { id: 'b', next: ref('node', 'a') } } };
    const { loader, calls } = fakeStore(cyclic);
    const path = Array.from({ length: 10 }, () => 'next').join('.');
    const expanded = await expandReferences({ next: ref('node', 'a') }, [path], loader);
    let depth = 0;
    // Bounded, so that a cyclic result (shared objects) fails instead of hanging.
    for (let cursor: unknown = expanded.next; depth < 50 && typeof cursor === 'object' && cursor !== null && 'obj' in cursor; depth++) {
      cursor = (cursor as { obj: { next: unknown } }).obj.next;
    }
    expect(depth).toBe(10);
    // Each id is loaded once per expansion, however often it appears.
    expect(calls).toEqual([
      { typeId: 'node', ids: ['a'] },
      { typeId: 'node', ids: ['b'] },
    ]);
  });
});

describe('expandReferences: failures are not errors (§7)', () => {
  it('leaves missing references, wrong shapes and non-object results as they are', async () => {
    const { loader } = fakeStore(RESOURCES);
    const doc = {
      missing: ref('category', 'nope'),
      noId: { typeId: 'category' },
      numericId: { typeId: 'category', id: 7 },
      scalar: 'c1',
      nothing: null,
      odd: ref('odd', 'notAnObject'),
      list: [ref('category', 'c0')],
    };
    const paths = ['missing', 'noId', 'numericId', 'scalar', 'nothing', 'odd', 'absent', 'list', 'scalar.deeper', 'list.x'];
    expect(await expandReferences(doc, paths, loader)).toEqual(doc);
  });

  it('ignores paths that do not parse', async () => {
    const { loader, calls } = fakeStore(RESOURCES);
    const doc = { parent: ref('category', 'c1') };
    const bad = ['', 'parent.', '.parent', 'parent..x', 'parent[', 'parent[-1]', 'parent[x]', 'par ent', 'parent[*', `${'a.'.repeat(10)}a`];
    expect(await expandReferences(doc, bad, loader)).toEqual(doc);
    expect(calls).toEqual([]);
  });

  it('rejects more than the maximum number of expand paths with a 400', async () => {
    const { loader } = fakeStore(RESOURCES);
    const doc = { parent: ref('category', 'c1') };
    await expect(
      expandReferences(
        doc,
        Array.from({ length: MAX_EXPAND_PATHS }, () => 'parent'),
        loader,
      ),
    ).resolves.toBeDefined();
    const error = await expandReferences(
      doc,
      Array.from({ length: MAX_EXPAND_PATHS + 1 }, (_, i) => `p${i}`),
      loader,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(400);
    expect((error as ApiError).code).toBe('InvalidInput');
  });

  it('refuses the same lists up front through assertExpandPaths, without loading anything', () => {
    expect(() => assertExpandPaths(Array.from({ length: MAX_EXPAND_PATHS }, () => 'parent'))).not.toThrow();
    // Unparseable paths are no error (§7); only the count is.
    expect(() => assertExpandPaths(['', 'a..b', '[*]'])).not.toThrow();
    const error = (() => {
      try {
        assertExpandPaths(Array.from({ length: MAX_EXPAND_PATHS + 1 }, () => 'parent'));
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(400);
    expect((error as ApiError).errors[0]).toMatchObject({ code: 'InvalidInput', parameter: 'expand' });
  });

  it('stops expanding, without an error, after the maximum number of references', async () => {
    const many = Array.from({ length: MAX_EXPANDED_REFERENCES + 5 }, (_, i) => ref('category', `c${i}`));
    const resources = { category: Object.fromEntries(many.map(({ id }) => [id, { id }])) };
    const expanded = await expandReferences({ many }, ['many[*]'], fakeStore(resources).loader);
    expect(expanded.many.filter((item) => 'obj' in item)).toHaveLength(MAX_EXPANDED_REFERENCES);
  });

  it('passes loader failures on: those are server errors, not expansion failures', async () => {
    const failing: ReferenceLoader = async () => {
      throw new Error('database down');
    };
    await expect(expandReferences({ parent: ref('category', 'c1') }, ['parent'], failing)).rejects.toThrow('database down');
  });
});

describe('expandReferences: copies', () => {
  it('does not modify the input document or the loaded resources', async () => {
    const resources = structuredClone(RESOURCES);
    const { loader } = fakeStore(resources);
    const doc = { category: ref('category', 'c2'), again: ref('category', 'c2') };
    const before = structuredClone(doc);
    const expanded = await expandReferences(doc, ['category.parent', 'again'], loader);
    expect(doc).toEqual(before);
    expect(resources).toEqual(RESOURCES);
    expect(expanded).not.toBe(doc);
    // The same resource in two places gets two objects, each expanded as its own path asks.
    expect(dig(expanded, 'category', 'obj')).not.toBe(dig(expanded, 'again', 'obj'));
    expect(dig(expanded, 'category', 'obj', 'parent', 'obj')).toEqual(RESOURCES.category.c1);
    expect(dig(expanded, 'again', 'obj', 'id')).toBe('c2');
    expect(dig(expanded, 'again', 'obj', 'parent', 'obj')).toBeUndefined();
  });

  it('returns a copy even with no paths', async () => {
    const doc = { parent: ref('category', 'c1') };
    const result = await expandReferences(doc, [], fakeStore(RESOURCES).loader);
    expect(result).toEqual(doc);
    expect(result).not.toBe(doc);
  });
});

describe('expandReferencesInMany', () => {
  it('expands a page of documents with one load per type and level', async () => {
    const { loader, calls } = fakeStore(RESOURCES);
    const page = [{ parent: ref('category', 'c0') }, { parent: ref('category', 'c1') }, { parent: ref('category', 'c1') }];
    const expanded = await expandReferencesInMany(page, ['parent'], loader);
    expect(calls).toEqual([{ typeId: 'category', ids: ['c0', 'c1'] }]);
    expect(expanded.map((doc) => (doc.parent as { obj?: { id: string } }).obj?.id)).toEqual(['c0', 'c1', 'c1']);
  });
});

describe('parseExpandPath', () => {
  it('reads fields and selectors', () => {
    expect(parseExpandPath('a')).toEqual([{ field: 'a', selectors: [] }]);
    expect(parseExpandPath('lineItems[*].variant[0][*].custom-field')).toEqual([
      { field: 'lineItems', selectors: ['all'] },
      { field: 'variant', selectors: [0, 'all'] },
      { field: 'custom-field', selectors: [] },
    ]);
  });

  it('rejects malformed and oversized paths', () => {
    for (const path of ['', 'a.', 'a[1', 'a[]', 'a[1.5]', 'a]', 'a b', 'a[99999999]', 'x'.repeat(1_001), `${'a.'.repeat(10)}a`]) {
      expect(parseExpandPath(path)).toBeUndefined();
    }
  });
});

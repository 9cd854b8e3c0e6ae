/**
 * QueryParameters.fieldRoot: predicates and sorts on a view whose fields live under a member of
 * the stored document (a ProductProjection reads `masterData.current` of a product). Fixture rows
 * as in fixtures.ts: `custom.fields` plays the sub-document a view flattens.
 */
import { createIsolatedDatabase, testDatabaseUrls } from '@herald/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/database/types.js';
import type { FieldRoot } from '../../src/query/index.js';
import { openSeededDatabase, queryIds } from './fixtures.js';

/** `size` and `color` are read from `custom.fields`; every other field stays at the root. */
const underCustomFields: FieldRoot = (field) => (field === 'size' || field === 'color' ? ['custom', 'fields'] : []);

describe.each(testDatabaseUrls())('fieldRoot on %s', (serverUrl) => {
  let db: Database;
  let drop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    // A database of its own on PostgreSQL: the fixture rows have fixed ids.
    const isolated = await createIsolatedDatabase(serverUrl);
    drop = isolated.drop;
    db = await openSeededDatabase(isolated.url);
  });
  afterAll(async () => {
    await db?.close();
    await drop();
  });

  it('reads a predicate on a rooted field under its root, and leaves other fields where they are', async () => {
    const rooted = await queryIds(db, { where: ['color = "red"'], fieldRoot: underCustomFields });
    expect(rooted).toEqual(await queryIds(db, { where: ['custom(fields(color = "red"))'] }));
    expect(rooted.length).toBeGreaterThan(0);
    // Without the root the field is looked for at the top level, where no fixture has it.
    expect(await queryIds(db, { where: ['color = "red"'] })).toEqual([]);
    expect(await queryIds(db, { where: ['version = 3 and color = "red"'], fieldRoot: underCustomFields })).toEqual(
      await queryIds(db, { where: ['version = 3 and custom(fields(color = "red"))'] }),
    );
  });

  it('sorts a rooted field under its root', async () => {
    expect(await queryIds(db, { sort: ['size desc'], fieldRoot: underCustomFields })).toEqual(await queryIds(db, { sort: ['custom.fields.size desc'] }));
  });
});

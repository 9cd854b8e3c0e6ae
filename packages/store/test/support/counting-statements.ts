import type { Database, QueryOptions } from '../../src/index.js';

/** The same database, counting the statements `counted` picks by their options (every one by default). */
export function countingStatements(db: Database, counted: (options: QueryOptions | undefined) => boolean = () => true): { db: Database; count: () => number } {
  let count = 0;
  return {
    db: {
      ...db,
      driver: db.driver,
      query: (sql, params, options) => {
        if (counted(options)) count++;
        return db.query(sql, params, options);
      },
      exec: (sql) => db.exec(sql),
      transaction: (work) => db.transaction(work),
      close: () => db.close(),
    },
    count: () => count,
  };
}

/** The same database, counting the statements that wrote outbox rows (the writes' round trips). */
export function countingWrites(db: Database): { db: Database; writes: () => number } {
  const { db: counted, count } = countingStatements(db, (options) => options?.appendsOutbox === true);
  return { db: counted, writes: count };
}

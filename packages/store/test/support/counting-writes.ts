import type { Database } from '../../src/index.js';

/** The same database, counting the statements that wrote outbox rows (the writes' round trips). */
export function countingWrites(db: Database): { db: Database; writes: () => number } {
  let writes = 0;
  return {
    db: {
      ...db,
      driver: db.driver,
      query: (sql, params, options) => {
        if (options?.appendsOutbox === true) writes++;
        return db.query(sql, params, options);
      },
      exec: (sql) => db.exec(sql),
      transaction: (work) => db.transaction(work),
      close: () => db.close(),
    },
    writes: () => writes,
  };
}

import { describe, expect, it } from 'vitest';
import { StatementDeadlines } from '../../src/database/statement-deadlines.js';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Statement deadlines (database/statement-deadlines.ts): one timer for every statement in flight,
 * each expiring once its own bound has passed, never after it was cleared.
 */
describe('statement deadlines', () => {
  it('expires each statement at its own deadline, earliest first, whatever order they came in', async () => {
    const deadlines = new StatementDeadlines();
    const expired: string[] = [];
    deadlines.watch(150, () => expired.push('slow'));
    deadlines.watch(30, () => expired.push('fast'));
    await sleep(80);
    expect(expired).toEqual(['fast']);
    await sleep(150);
    expect(expired).toEqual(['fast', 'slow']);
    expect(deadlines.size).toBe(0);
  });

  it('never expires a statement that finished first, and keeps watching the others', async () => {
    const deadlines = new StatementDeadlines();
    const expired: string[] = [];
    const done = deadlines.watch(20, () => expired.push('done'));
    deadlines.watch(60, () => expired.push('stuck'));
    deadlines.clear(done);
    await sleep(120);
    expect(expired).toEqual(['stuck']);
  });

  it('expires a statement watched after the timer was armed for a later one', async () => {
    const deadlines = new StatementDeadlines();
    const expired: string[] = [];
    deadlines.watch(10_000, () => expired.push('generous'));
    deadlines.watch(20, () => expired.push('tight'));
    await sleep(80);
    expect(expired).toEqual(['tight']);
    expect(deadlines.size).toBe(1);
  });
});

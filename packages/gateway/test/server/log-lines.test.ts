import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig, startHerald } from '../../src/index.js';

/** Every line `herald serve` writes, parsed (pino writes one JSON object per line). */
function capturedLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((line) => line.length > 0),
      );
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines };
}

describe('herald serve log lines', () => {
  it('name their component once (the in-process delivery worker as its own components do)', async () => {
    const { logger, lines } = capturedLogger();
    const herald = await startHerald(loadConfig({ DATABASE_URL: 'pglite://memory', PORT: '0', LOG_LEVEL: 'debug', HERALD_PROJECTS: 'logs' }), logger);
    await fetch(`${herald.url}/healthz`);
    await herald.stop();

    const components = lines.map((line) => [...line.matchAll(/"component":/g)].length);
    // A repeated key is legal JSON, but log pipelines keep only one of the values (which one varies).
    expect(components.filter((count) => count > 1)).toEqual([]);
    const delivery = lines.map((line) => JSON.parse(line) as { component?: string }).filter((line) => line.component === 'delivery-worker');
    expect(delivery.length).toBeGreaterThan(0);
  }, 60_000);
});

import { performance } from 'node:perf_hooks';

export interface Measurement {
  readonly name: string;
  readonly operations: number;
  readonly seconds: number;
}

export function perSecond(measurement: Measurement): number {
  return measurement.operations / measurement.seconds;
}

/** Runs `body` `operations` times after a warm-up, returns the elapsed time. */
export function measureSync(name: string, operations: number, body: (index: number) => void): Measurement {
  for (let index = 0; index < Math.min(operations, 20_000); index++) body(index);
  const startedAt = performance.now();
  for (let index = 0; index < operations; index++) body(index);
  return { name, operations, seconds: (performance.now() - startedAt) / 1000 };
}

export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export function formatRate(rate: number): string {
  return Math.round(rate).toLocaleString('en-US');
}

import { cpus } from 'node:os';

/** Prints a markdown table plus the machine line docs/benchmarks.md records. */
export function printTable(title: string, headers: readonly string[], rows: readonly (readonly string[])[]): void {
  console.log(`\n### ${title}\n`);
  console.log(`| ${headers.join(' | ')} |`);
  console.log(`| ${headers.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log(`\n_${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}_`);
}

export const perSecond = (count: number, ms: number): number => Math.round((count / ms) * 1000);
export const formatRate = (rate: number): string => rate.toLocaleString('en-US');

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

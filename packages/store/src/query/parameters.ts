/** Collects bound values and hands out their `$n` placeholders, numbered from `first`. */
export class SqlParameters {
  readonly values: unknown[] = [];

  constructor(private readonly first: number) {
    if (!Number.isInteger(first) || first < 1) throw new RangeError(`firstParam must be an integer >= 1, got ${first}`);
  }

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.first + this.values.length - 1}`;
  }
}

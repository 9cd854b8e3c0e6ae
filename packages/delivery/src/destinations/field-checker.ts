import { looksSealed } from '../secrets/secret-box.js';

/**
 * Reads the fields of a destination draft (§2.4) and collects their errors with the path the API
 * reports (`destination.queueUrl`). A destination's descriptor checks its own fields with it.
 */
export class FieldChecker {
  readonly errors: string[] = [];
  constructor(private readonly input: Readonly<Record<string, unknown>>) {}

  /** The field as sent, unchecked: for rules a descriptor states itself. */
  raw(field: string): unknown {
    return this.input[field];
  }

  string(field: string): string {
    const value = this.input[field];
    if (typeof value !== 'string' || value.trim() === '') {
      this.errors.push(`destination.${field}: a non-empty string is required.`);
      return '';
    }
    return value;
  }

  /** A secret: a string that cannot be mistaken for one Herald sealed (never echoed in the error). */
  secret(field: string): string {
    const value = this.string(field);
    if (looksSealed(value)) this.errors.push(`destination.${field}: must not start with "enc:v1:" (the form of secrets Herald sealed).`);
    return value;
  }

  url(field: string): URL | undefined {
    const value = this.string(field);
    if (value === '') return undefined;
    try {
      const url = new URL(value);
      // URLs are answered as they are (only the secret fields are masked): a password in one
      // would be shown in full.
      if (url.username !== '' || url.password !== '') {
        this.errors.push(`destination.${field}: must not contain credentials (user:password@); send them in the destination's secret field.`);
        return undefined;
      }
      if (url.protocol === 'https:' || url.protocol === 'http:') return url;
    } catch {
      // reported below
    }
    this.errors.push(`destination.${field}: '${value}' is not an http(s) URL.`);
    return undefined;
  }

  check(condition: boolean, message: string): void {
    if (!condition) this.errors.push(message);
  }
}

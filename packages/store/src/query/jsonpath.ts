/**
 * Builds SQL/JSON path text. The whole path travels to PostgreSQL as ONE bound parameter
 * (`r.doc @? $n::jsonpath`), so user text never reaches SQL; inside the path, user strings are
 * string literals escaped here and field names (`[A-Za-z0-9_-]+`, checked by the tokenizer) are
 * written as quoted member accessors, so user text cannot change the structure of the path either.
 */

/** A jsonpath string literal: `"`, `\` and control characters escaped, everything else verbatim. */
export function jsonPathString(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const c = value.charAt(i);
    const code = value.charCodeAt(i);
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

/** A member accessor on `@`, e.g. `@."name"`: quoted so that names like `type` or `last` are not keywords. */
export function member(name: string): string {
  return `@.${jsonPathString(name)}`;
}

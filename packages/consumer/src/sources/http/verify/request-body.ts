/** The body as a JSON object, or undefined when it is not one. */
export function jsonObjectOf(body: Uint8Array | string | undefined): Record<string, unknown> | undefined {
  if (body === undefined) return undefined;
  const text = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

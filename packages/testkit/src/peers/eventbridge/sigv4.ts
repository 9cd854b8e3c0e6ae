/**
 * Reads the access key id from a SigV4 `Authorization` header:
 * `AWS4-HMAC-SHA256 Credential=<key id>/<date>/<region>/<service>/aws4_request, SignedHeaders=…, Signature=…`.
 * Returns undefined when the header is missing or is not SigV4.
 *
 * The signature itself is not verified: the peer only needs to tell "the configured key" from
 * "another key", which is what a destination with rotated or mistyped credentials produces.
 */
export function accessKeyIdOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined || !authorization.startsWith('AWS4-HMAC-SHA256 ')) return undefined;
  const credential = /Credential=([^/,\s]+)\//.exec(authorization);
  return credential?.[1];
}

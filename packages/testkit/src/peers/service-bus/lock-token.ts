import { randomUUID } from 'node:crypto';

/**
 * Lock tokens. The service puts a message's lock token in the delivery tag as the 16 bytes of a
 * .NET `Guid`, whose first three groups are little-endian; the SDK reorders those bytes before
 * formatting the token string, and sends the token back in management requests (renew-lock) as a
 * plain big-endian AMQP uuid. The peer keys locks by that string.
 */
export function newLockToken(): string {
  return randomUUID();
}

/** The delivery tag that makes the SDK see `lockToken`. */
export function deliveryTagFor(lockToken: string): Buffer {
  return swapGuidGroups(uuidBytes(lockToken));
}

/** The lock token the SDK derives from a delivery tag the peer created. */
export function lockTokenFromDeliveryTag(tag: Buffer | string): string {
  return uuidString(swapGuidGroups(typeof tag === 'string' ? Buffer.from(tag) : tag));
}

/** The lock token in an AMQP uuid (network byte order), as the SDK sends it in management requests. */
export function lockTokenFromUuid(bytes: Buffer): string {
  return uuidString(bytes);
}

function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

function uuidString(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Reverses bytes 0-3, 4-5 and 6-7: its own inverse. */
function swapGuidGroups(bytes: Buffer): Buffer {
  if (bytes.length !== 16) return Buffer.from(bytes);
  const order = [3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15];
  return Buffer.from(order.map((index) => bytes[index] ?? 0));
}

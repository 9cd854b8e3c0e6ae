import type { WirePubsubMessage, WireTimestamp } from './wire.js';

/** A message the peer accepted on a topic, as a test inspects it. */
export interface PublishedMessage {
  readonly messageId: string;
  readonly data: Buffer;
  /** `data` parsed as JSON, when it is JSON (Herald publishes JSON documents). */
  readonly json?: unknown;
  readonly attributes: Readonly<Record<string, string>>;
  /** '' when the publisher set none, as on the wire. */
  readonly orderingKey: string;
  readonly publishTime: Date;
}

export function acceptMessage(message: WirePubsubMessage, messageId: string, publishTime: Date): PublishedMessage {
  const data = Buffer.from(message.data);
  const json = parseJson(data);
  return {
    messageId,
    data,
    ...(json === undefined ? {} : { json: json.value }),
    attributes: { ...message.attributes },
    orderingKey: message.orderingKey,
    publishTime,
  };
}

/** The message as the Subscriber service sends it, with the id and publish time the service set. */
export function toWire(message: PublishedMessage): WirePubsubMessage {
  return {
    data: message.data,
    attributes: message.attributes,
    messageId: message.messageId,
    publishTime: toTimestamp(message.publishTime),
    orderingKey: message.orderingKey,
  };
}

/** Bytes a message counts against flow control and size limits: its data and attributes. */
export function messageBytes(message: PublishedMessage): number {
  let bytes = message.data.length + Buffer.byteLength(message.orderingKey);
  for (const [key, value] of Object.entries(message.attributes)) bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
  return bytes;
}

function toTimestamp(date: Date): WireTimestamp {
  const millis = date.getTime();
  return { seconds: Math.floor(millis / 1000), nanos: (millis % 1000) * 1_000_000 };
}

function parseJson(data: Buffer): { value: unknown } | undefined {
  if (data.length === 0) return undefined;
  try {
    return { value: JSON.parse(data.toString('utf8')) as unknown };
  } catch {
    return undefined;
  }
}

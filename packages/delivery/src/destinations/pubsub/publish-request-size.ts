/**
 * Pub/Sub's 10 MB limit is on the serialized Publish request, not on the messages' data: the topic
 * name and the protobuf framing of every message and attribute count too. In the wire format
 *
 *   PublishRequest { string topic = 1; repeated PubsubMessage messages = 2; }
 *   PubsubMessage  { bytes data = 1; map<string, string> attributes = 2; … }
 *
 * every field Herald sets is length-delimited: a tag byte (field numbers below 16), the content's
 * length as a varint, the content. A map entry is a nested message `{ key = 1; value = 2 }`.
 */
const PUBLISH_REQUEST_LIMIT_BYTES = 10_000_000;

/**
 * The longest topic name Pub/Sub accepts: `projects/` + project id (at most 30 characters) +
 * `/topics/` + topic id (at most 255), all ASCII. Reserving room for it makes one limit right for
 * every topic, at the cost of a few hundred bytes of 10 MB.
 */
const MAX_TOPIC_NAME_BYTES = 'projects/'.length + 30 + '/topics/'.length + 255;

/** Room the messages of one Publish request have, whatever its topic. */
export const PUBLISH_MESSAGES_ROOM_BYTES = PUBLISH_REQUEST_LIMIT_BYTES - delimitedFieldBytes(MAX_TOPIC_NAME_BYTES);

/** A message's share of the Publish request that carries it: its data and attributes, framed. */
export function publishedMessageBytes(dataBytes: number, attributes: Readonly<Record<string, string>>): number {
  let contentBytes = delimitedFieldBytes(dataBytes);
  for (const [key, value] of Object.entries(attributes)) {
    contentBytes += delimitedFieldBytes(delimitedFieldBytes(Buffer.byteLength(key)) + delimitedFieldBytes(Buffer.byteLength(value)));
  }
  return delimitedFieldBytes(contentBytes);
}

function delimitedFieldBytes(contentBytes: number): number {
  return 1 + varintBytes(contentBytes) + contentBytes;
}

function varintBytes(value: number): number {
  let bytes = 1;
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 0x80)) bytes += 1;
  return bytes;
}

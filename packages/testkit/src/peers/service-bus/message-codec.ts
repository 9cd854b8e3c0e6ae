import rhea, { type Message as AmqpMessage } from 'rhea';

/**
 * Decoding what senders transfer and encoding what the peer stores, in the AMQP 1.0 message format
 * (spec part 3.2) plus the Service Bus batch format.
 */

/** Message format of a Service Bus batch: the payload is an AMQP message whose body is a list of data
 *  sections, each holding one complete encoded message. rhea hands such payloads over undecoded. */
export const BATCH_MESSAGE_FORMAT = 0x80013700;

export type { AmqpMessage };

export interface DecodedMessage {
  readonly amqp: AmqpMessage;
  /** Encoded size: what the service compares with the entity's maximum message size. */
  readonly encodedBytes: number;
}

export type DecodedTransfer =
  | { readonly ok: true; readonly messages: readonly DecodedMessage[]; readonly payloadBytes: number; readonly batched: boolean }
  | { readonly ok: false; readonly description: string };

/**
 * Decodes one transfer. `payload` is what rhea delivered: a decoded message for the standard format 0,
 * the raw bytes for any other format.
 */
export function decodeTransfer(payload: AmqpMessage | Buffer, format: number | undefined): DecodedTransfer {
  if (!Buffer.isBuffer(payload)) {
    // rhea decoded format 0 already and keeps no bytes; re-encoding gives the size the sender sent,
    // because the SDK encodes with rhea too (smallest encodings either way).
    const encodedBytes = rhea.message.encode(payload).length;
    return { ok: true, messages: [{ amqp: payload, encodedBytes }], payloadBytes: encodedBytes, batched: false };
  }
  if (format !== BATCH_MESSAGE_FORMAT) {
    return { ok: false, description: `Unsupported message format ${String(format)}.` };
  }
  try {
    const envelope = decodeMessage(payload);
    const sections = dataSectionContents(envelope.body);
    if (sections === undefined) return { ok: false, description: 'A batch body must consist of data sections.' };
    const messages = sections.map((bytes) => ({ amqp: decodeMessage(bytes), encodedBytes: bytes.length }));
    return { ok: true, messages, payloadBytes: payload.length, batched: true };
  } catch (error) {
    return { ok: false, description: `The batch could not be decoded: ${(error as Error).message}` };
  }
}

/** How rhea represents a body made of data (0x75) or sequence (0x76) sections. */
interface BodySection {
  readonly typecode: number;
  readonly content: unknown;
  readonly multiple?: boolean;
}

const DATA_SECTION = 0x75;
const SEQUENCE_SECTION = 0x76;

function asBodySection(body: unknown): BodySection | undefined {
  if (typeof body !== 'object' || body === null || !('typecode' in body) || !('content' in body)) return undefined;
  return body as BodySection;
}

/** The bytes of each data section, or undefined when the body is not made of data sections. */
function dataSectionContents(body: unknown): Buffer[] | undefined {
  const section = asBodySection(body);
  if (section?.typecode !== DATA_SECTION) return undefined;
  const contents: unknown[] = section.multiple ? (section.content as unknown[]) : [section.content];
  return contents.every((item) => Buffer.isBuffer(item)) ? (contents as Buffer[]) : undefined;
}

/** The body as a receiving application sees it: JSON is parsed (as the SDK does), bytes stay bytes. */
export function readBody(body: unknown): { readonly body: unknown; readonly rawBody: Buffer | undefined } {
  const data = dataSectionContents(body);
  if (data !== undefined) {
    const bytes = data.length === 1 ? (data[0] as Buffer) : Buffer.concat(data);
    return { body: parseJsonOr(bytes.toString('utf8'), bytes), rawBody: bytes };
  }
  const section = asBodySection(body);
  if (section?.typecode === SEQUENCE_SECTION) return { body: section.content, rawBody: undefined };
  if (typeof body === 'string') return { body: parseJsonOr(body, body), rawBody: undefined };
  return { body, rawBody: undefined };
}

function parseJsonOr<T>(text: string, fallback: T): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/** An application property value the peer can encode. */
export type ServiceBusPropertyValue = string | number | boolean | Date | null;

/** A message put into an entity directly (`peer.enqueue`), as if a sender had sent it. */
export interface ServiceBusMessageInput {
  /** Bytes are sent as they are; anything else as UTF-8 JSON, like the SDK's default body encoding. */
  readonly body: unknown;
  readonly contentType?: string;
  readonly messageId?: string;
  readonly correlationId?: string;
  readonly subject?: string;
  readonly sessionId?: string;
  readonly timeToLiveMs?: number;
  readonly applicationProperties?: Readonly<Record<string, ServiceBusPropertyValue>>;
}

export function encodeInput(input: ServiceBusMessageInput): AmqpMessage {
  const bytes = input.body instanceof Uint8Array ? Buffer.from(input.body) : Buffer.from(JSON.stringify(input.body) ?? 'null');
  const message: AmqpMessage = { body: rhea.message.data_section(bytes) } as AmqpMessage;
  if (input.contentType !== undefined) message['content_type'] = input.contentType;
  if (input.messageId !== undefined) message['message_id'] = input.messageId;
  if (input.correlationId !== undefined) message['correlation_id'] = input.correlationId;
  if (input.subject !== undefined) message['subject'] = input.subject;
  if (input.sessionId !== undefined) message['group_id'] = input.sessionId;
  if (input.timeToLiveMs !== undefined) message['ttl'] = input.timeToLiveMs;
  if (input.applicationProperties !== undefined) message['application_properties'] = { ...input.applicationProperties };
  return message;
}

export function encodedSize(message: AmqpMessage): number {
  return rhea.message.encode(message).length;
}

/** rhea types decoded messages with a second `Message` interface lacking `body`; it is the same shape. */
function decodeMessage(bytes: Buffer): AmqpMessage {
  return rhea.message.decode(bytes) as unknown as AmqpMessage;
}

/**
 * The signed fields of an SNS HTTP/S message and the string SNS signs ("Verifying the signatures
 * of Amazon SNS messages", SNS Developer Guide): each field as `Name\nValue\n`, in this fixed
 * byte order, absent optional fields left out, nothing else included.
 */

export type SnsMessageType = 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';

const NOTIFICATION_FIELDS = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const;
const CONFIRMATION_FIELDS = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const;
const OPTIONAL_FIELDS: ReadonlySet<string> = new Set(['Subject']);

/** SignatureVersion 1 signs a SHA1 digest, 2 a SHA256 digest (both RSA PKCS#1 v1.5). */
const DIGEST_BY_SIGNATURE_VERSION: ReadonlyMap<string, 'sha1' | 'sha256'> = new Map([
  ['1', 'sha1'],
  ['2', 'sha256'],
]);

export interface SnsSignedMessage {
  readonly type: SnsMessageType;
  /** The signed fields only: what the consumer is given once the signature verified. */
  readonly fields: Readonly<Record<string, string>>;
  readonly digest: 'sha1' | 'sha256';
  readonly signature: Buffer;
  readonly signingCertUrl: string;
}

function fieldNamesOf(type: SnsMessageType): readonly string[] {
  return type === 'Notification' ? NOTIFICATION_FIELDS : CONFIRMATION_FIELDS;
}

function isMessageType(value: unknown): value is SnsMessageType {
  return value === 'Notification' || value === 'SubscriptionConfirmation' || value === 'UnsubscribeConfirmation';
}

/** `undefined` when the document carries no signature at all (unsigned); a string saying what is wrong when malformed. */
export function readSignedMessage(document: Record<string, unknown>): SnsSignedMessage | string | undefined {
  const { Type: type, Signature: signature, SigningCertURL: signingCertUrl, SignatureVersion: version } = document;
  if (signature === undefined && signingCertUrl === undefined) return undefined;
  if (!isMessageType(type)) return `SNS message Type ${JSON.stringify(type)} is not one SNS signs`;
  if (typeof signature !== 'string' || typeof signingCertUrl !== 'string') return 'Signature and SigningCertURL must be strings';
  const digest = typeof version === 'string' ? DIGEST_BY_SIGNATURE_VERSION.get(version) : undefined;
  if (digest === undefined) return `SignatureVersion ${JSON.stringify(version)} is not 1 or 2`;
  const fields: Record<string, string> = {};
  for (const name of fieldNamesOf(type)) {
    const value = document[name];
    if (value === undefined && OPTIONAL_FIELDS.has(name)) continue;
    if (typeof value !== 'string') return `SNS ${type} field ${name} must be a string`;
    fields[name] = value;
  }
  return { type, fields, digest, signature: Buffer.from(signature, 'base64'), signingCertUrl };
}

export function stringToSign(message: SnsSignedMessage): string {
  let text = '';
  for (const name of fieldNamesOf(message.type)) {
    const value = message.fields[name];
    if (value !== undefined) text += `${name}\n${value}\n`;
  }
  return text;
}

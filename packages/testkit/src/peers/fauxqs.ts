import { startFauxqs, type FauxqsServer, type SqsSpyMessage } from 'fauxqs';

/**
 * SQS and SNS for tests: the `fauxqs` emulator in-process, with helpers that create resources the
 * way Herald's destinations expect them and read back what arrived.
 *
 * Queue URLs use `sqs.<region>.localhost`, which does not resolve here: give SDK clients the
 * explicit `endpoint` (the SDK then only uses the URL as a parameter).
 */

export interface SqsPeerOptions {
  /** Default 'us-east-1'. SDK clients must use the same region: it is part of a queue's identity. */
  readonly region?: string;
  /** Events the spy remembers for `waitForMessages`; default 10,000 (fauxqs keeps 100). */
  readonly spyBufferSize?: number;
}

export interface SqsPeerCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface SubscribeQueueOptions {
  /** Raw message delivery: the queue gets the published body instead of the SNS JSON envelope. */
  readonly raw?: boolean;
}

/** A message drained from a queue by `receiveAll`. */
export interface DrainedSqsMessage {
  readonly messageId: string;
  readonly body: string;
  /** System attributes (SentTimestamp, MessageGroupId, …). */
  readonly attributes: Readonly<Record<string, string>>;
  readonly messageAttributes: Readonly<Record<string, { readonly DataType: string; readonly StringValue?: string; readonly BinaryValue?: string }>>;
}

export interface SqsPeer {
  /** Give this to `new SQSClient({ endpoint })` / `new SNSClient({ endpoint })`. */
  readonly endpoint: string;
  readonly region: string;
  /** Accepted and never checked by fauxqs; the SDK needs some to sign. */
  readonly credentials: SqsPeerCredentials;
  /** The emulator itself, for what the helpers do not cover (`inspectQueue`, `spy`, `reset`). */
  readonly fauxqs: FauxqsServer;
  /** A standard queue limited to 256 KiB messages (unless `attributes` say otherwise); returns its URL. */
  createQueue(name: string, attributes?: Readonly<Record<string, string>>): string;
  /** A FIFO queue (`.fifo` is appended when missing), limited to 256 KiB messages; returns its URL. */
  createFifoQueue(name: string, attributes?: Readonly<Record<string, string>>): string;
  /** Returns the topic ARN. */
  createTopic(name: string): string;
  subscribeQueue(topicArn: string, queueUrl: string, options?: SubscribeQueueOptions): void;
  /** Receives and deletes everything currently visible in the queue, oldest first. */
  receiveAll(queueUrl: string): Promise<DrainedSqsMessage[]>;
  /** Resolves with the first `count` messages sent to the queue (by any path, SNS fan-out included). */
  waitForMessages(queueUrl: string, count: number, timeoutMs?: number): Promise<SqsSpyMessage[]>;
  stop(): Promise<void>;
}

/**
 * Herald's spec limits a message to 256 KiB; AWS (and fauxqs) now default to 1 MiB, so a queue
 * created with the default would accept messages a real, older-configured queue refuses.
 */
const SPEC_MAX_MESSAGE_SIZE = '262144';
const DEFAULT_REGION = 'us-east-1';
/** How long a wait for arrivals lasts unless told: a bound for failing tests, generous for a loaded 2-core CI machine. */
const DEFAULT_WAIT_MS = 15_000;

export async function startSqsPeer(options: SqsPeerOptions = {}): Promise<SqsPeer> {
  const region = options.region ?? DEFAULT_REGION;
  const fauxqs = await startFauxqs({
    port: 0,
    logger: false,
    defaultRegion: region,
    messageSpies: { bufferSize: options.spyBufferSize ?? 10_000 },
  });
  // fauxqs listens on every interface; tests talk to it over loopback only.
  const endpoint = `http://127.0.0.1:${fauxqs.port}`;

  const createQueue = (name: string, attributes: Readonly<Record<string, string>> = {}) =>
    fauxqs.createQueue(name, { attributes: { MaximumMessageSize: SPEC_MAX_MESSAGE_SIZE, ...attributes } }).queueUrl;

  return {
    endpoint,
    region,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    fauxqs,
    createQueue,
    createFifoQueue(name, attributes = {}) {
      return createQueue(name.endsWith('.fifo') ? name : `${name}.fifo`, { FifoQueue: 'true', ...attributes });
    },
    createTopic(name) {
      return fauxqs.createTopic(name).topicArn;
    },
    subscribeQueue(topicArn, queueUrl, subscribeOptions = {}) {
      fauxqs.subscribe({
        topic: nameOfArn(topicArn),
        queue: nameOfQueueUrl(queueUrl),
        ...(subscribeOptions.raw === true ? { attributes: { RawMessageDelivery: 'true' } } : {}),
      });
    },
    receiveAll(queueUrl) {
      return drain(endpoint, queueUrl);
    },
    async waitForMessages(queueUrl, count, timeoutMs = DEFAULT_WAIT_MS) {
      const queueName = nameOfQueueUrl(queueUrl);
      const sent = await fauxqs.spy.waitForMessages((event) => event.service === 'sqs' && event.queueName === queueName, {
        count,
        status: 'published',
        timeout: timeoutMs,
      });
      return sent.filter((event): event is SqsSpyMessage => event.service === 'sqs');
    },
    stop() {
      return fauxqs.stop();
    },
  };
}

const nameOfQueueUrl = (queueUrl: string): string => new URL(queueUrl).pathname.split('/').pop() ?? '';
const nameOfArn = (arn: string): string => arn.slice(arn.lastIndexOf(':') + 1);

interface WireMessage {
  readonly MessageId: string;
  readonly ReceiptHandle: string;
  readonly Body: string;
  readonly Attributes?: Record<string, string>;
  readonly MessageAttributes?: DrainedSqsMessage['messageAttributes'];
}

/**
 * Receives and deletes in rounds of 10 until the queue answers empty. Spoken over SQS's JSON
 * protocol directly (fauxqs does not check signatures), so the testkit needs no AWS SDK.
 */
async function drain(endpoint: string, queueUrl: string): Promise<DrainedSqsMessage[]> {
  const drained: DrainedSqsMessage[] = [];
  for (;;) {
    const output = (await sqsCall(endpoint, 'ReceiveMessage', {
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 0,
      MessageAttributeNames: ['All'],
      MessageSystemAttributeNames: ['All'],
    })) as { Messages?: WireMessage[] };
    const messages = output.Messages ?? [];
    if (messages.length === 0) return drained;
    await sqsCall(endpoint, 'DeleteMessageBatch', {
      QueueUrl: queueUrl,
      Entries: messages.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle })),
    });
    for (const message of messages) {
      drained.push({
        messageId: message.MessageId,
        body: message.Body,
        attributes: message.Attributes ?? {},
        messageAttributes: message.MessageAttributes ?? {},
      });
    }
  }
}

async function sqsCall(endpoint: string, action: string, input: object): Promise<unknown> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `AmazonSQS.${action}` },
    body: JSON.stringify(input),
  });
  const output = (await response.json()) as { __type?: string; message?: string };
  if (!response.ok) throw new Error(`SQS ${action} failed with ${response.status}: ${output.__type ?? ''} ${output.message ?? ''}`);
  return output;
}

import type { Destination } from '@herald/model';
import { startSqsPeer, type PeerFault, type SqsPeer } from '@herald/testkit';
import { startAwsFaultProxy, type AwsFaultProxy } from '../aws-fault-proxy.js';
import type { Arrival, DestinationHarness } from '../harness.js';

const REGION = 'us-east-1';
/** fauxqs does not check credentials; bad credentials are the fault proxy's `bad-credentials`. */
const CREDENTIALS = { accessKey: 'AKIAHERALDTEST000001', accessSecret: 'herald-test-secret-key' };

/** fauxqs (the testkit's SQS/SNS peer) behind a loopback fault proxy; the SDK's endpoint is the proxy. */
abstract class FauxqsHarness {
  protected peer!: SqsPeer;
  protected proxy!: AwsFaultProxy;
  protected counter = 0;
  protected sinkQueue = '';

  constructor(private readonly protocol: 'json' | 'query') {}

  async start(): Promise<void> {
    this.peer = await startSqsPeer({ region: REGION });
    this.proxy = await startAwsFaultProxy(this.peer.endpoint, this.protocol);
  }

  async stop(): Promise<void> {
    await this.proxy.stop();
    await this.peer.stop();
  }

  arrivals(): Promise<Arrival[]> {
    // fauxqs stores a message before it answers, so what was acknowledged is already there.
    const queue = this.peer.fauxqs.inspectQueue(this.sinkQueue);
    const messages = [...(queue?.messages.ready ?? []), ...(queue?.messages.delayed ?? [])];
    return Promise.resolve(messages.map((message) => ({ document: JSON.parse(message.body) as unknown, meta: { attributes: message.messageAttributes } })));
  }

  acceptedBatchSizes(): readonly number[] {
    return this.proxy.forwardedBatchSizes;
  }

  receivedBatchSizes(): readonly number[] {
    return this.proxy.receivedBatchSizes;
  }

  injectFault(fault: PeerFault, times?: number): void {
    this.proxy.faults.inject(fault, times);
  }

  clearFaults(): void {
    this.proxy.faults.clear();
  }

  failEntries(indices: readonly number[]): void {
    this.proxy.failEntries(indices);
  }

  protected resetCounters(): void {
    this.proxy.forwardedBatchSizes.length = 0;
    this.proxy.receivedBatchSizes.length = 0;
  }
}

export class SqsHarness extends FauxqsHarness implements DestinationHarness {
  readonly type = 'SQS';
  /** SendMessageBatch: 10 entries. */
  readonly vendorMaxBatchEntries = 10;

  constructor() {
    super('json');
  }

  envOptions() {
    return { endpoints: { sqs: this.proxy.endpoint } };
  }

  unreachable(destination: Destination, closedPort: number) {
    return { destination, env: { endpoints: { sqs: `http://127.0.0.1:${closedPort}` } } };
  }

  freshDestination(): Destination {
    this.resetCounters();
    this.sinkQueue = `herald-sqs-${++this.counter}`;
    const queueUrl = this.peer.createQueue(this.sinkQueue);
    return { type: 'SQS', queueUrl, region: REGION, ...CREDENTIALS };
  }

  unknownEntity(destination: Destination): Destination {
    this.peer.fauxqs.deleteQueue(this.sinkQueue, { region: REGION });
    return destination;
  }

  /** SQS refuses characters outside XML 1.0 (`InvalidMessageContents`, a per-entry sender fault). */
  invalidNativeMessage(): unknown {
    return { body: 'not allowed: \u0000' };
  }
}

export class SnsHarness extends FauxqsHarness implements DestinationHarness {
  readonly type = 'SNS';
  /** PublishBatch: 10 entries (fauxqs accepts 11, AWS does not: sdk-facts.md). */
  readonly vendorMaxBatchEntries = 10;
  private topic = '';

  constructor() {
    super('query');
  }

  envOptions() {
    return { endpoints: { sns: this.proxy.endpoint } };
  }

  unreachable(destination: Destination, closedPort: number) {
    return { destination, env: { endpoints: { sns: `http://127.0.0.1:${closedPort}` } } };
  }

  freshDestination(): Destination {
    this.resetCounters();
    this.topic = `herald-sns-${++this.counter}`;
    this.sinkQueue = `${this.topic}-sink`;
    const topicArn = this.peer.createTopic(this.topic);
    // Raw delivery: the sink queue holds exactly what was published, without the SNS envelope.
    this.peer.subscribeQueue(topicArn, this.peer.createQueue(this.sinkQueue), { raw: true });
    return { type: 'SNS', topicArn, ...CREDENTIALS };
  }

  unknownEntity(destination: Destination): Destination {
    this.peer.fauxqs.deleteTopic(this.topic, { region: REGION });
    return destination;
  }
}

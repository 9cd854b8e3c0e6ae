/**
 * The set-up most resource tests start from: a real gateway whose in-process delivery worker sends
 * to a fresh SQS peer (fauxqs), and a caller with the scopes the test needs (through
 * `POST /oauth/token`, as every caller).
 *
 *   let setup: SqsGateway | undefined;
 *   beforeAll(async () => {
 *     setup = await startSqsGateway(P, ['manage_zones', 'manage_subscriptions']);
 *     ({ sqs, gateway, admin } = setup);
 *   }, 180_000);
 *   afterAll(() => setup?.close());
 */
import { startSqsPeer, type SqsPeer } from '@herald/testkit';
import { callerWith, type Caller } from '../carts/commerce.js';
import { REGION } from '../subscriptions/support.js';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from './gateway.js';

export interface SqsGatewayOptions extends Omit<TestGatewayOptions, 'delivery'> {
  /** Seals destination secrets at rest, like `HERALD_SECRET_KEY`. */
  secretKey?: string;
}

export interface SqsGateway {
  sqs: SqsPeer;
  gateway: TestGateway;
  /** A caller with the scopes asked for, on `projectKey`. */
  admin: Caller;
  /** Closes the gateway (and its worker), then the peer. */
  close(): Promise<void>;
}

/** Sends time out after 10 s, not the default: a busy CI machine may be slow to answer. */
const SEND_TIMEOUT_MS = 10_000;

/** A gateway on `options.projects` (default: `[projectKey]`) delivering to a new SQS peer, and a caller with `scopes`. */
export function startSqsGateway(projectKey: string, scopes: readonly string[], options: SqsGatewayOptions = {}): Promise<SqsGateway> {
  const { secretKey, ...gatewayOptions } = options;
  return gatewayBesideSqsPeer(
    (sqs) => ({
      projects: [projectKey],
      ...gatewayOptions,
      delivery: {
        ...(secretKey === undefined ? {} : { secretKey }),
        environment: { endpoints: { sqs: sqs.endpoint }, timeouts: { sendMs: SEND_TIMEOUT_MS } },
      },
    }),
    async (gateway) => ({ admin: await callerWith(gateway, projectKey, scopes) }),
  );
}

/**
 * A new SQS peer, a test gateway with the options `optionsFor` gives for it, and what `prepare`
 * makes of both (callers, seeded data); `close` ends the gateway, then the peer. When a step
 * fails, what was started is closed again before the error is thrown.
 */
export async function gatewayBesideSqsPeer<T extends object>(
  optionsFor: (sqs: SqsPeer) => TestGatewayOptions,
  prepare: (gateway: TestGateway, sqs: SqsPeer) => Promise<T>,
): Promise<T & { sqs: SqsPeer; gateway: TestGateway; close(): Promise<void> }> {
  const sqs = await startSqsPeer({ region: REGION });
  let gateway: TestGateway | undefined;
  try {
    gateway = await startTestGateway(optionsFor(sqs));
    const started = gateway;
    const prepared = await prepare(started, sqs);
    return {
      ...prepared,
      sqs,
      gateway: started,
      async close() {
        await started.close();
        await sqs.stop();
      },
    };
  } catch (error) {
    await gateway?.close();
    await sqs.stop();
    throw error;
  }
}

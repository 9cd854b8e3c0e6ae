import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { createConsumer, createNodeHttpHandler, heraldConsumerPlugin, type ConsumerOptions } from '../../src/index.js';

export interface PushEndpoint {
  readonly url: string;
  close(): Promise<void>;
}

/** The consumer behind `createNodeHttpHandler`, on an ephemeral port, with the handler's defaults unless given. */
export async function nodeEndpoint(consumerOptions: ConsumerOptions, handlerOptions: Parameters<typeof createNodeHttpHandler>[1] = {}): Promise<PushEndpoint> {
  const consumer = createConsumer(consumerOptions);
  const server: Server = createServer(createNodeHttpHandler(consumer, handlerOptions));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await consumer.close();
    },
  };
}

/** The same consumer behind `heraldConsumerPlugin` (Fastify), with the plugin's defaults. */
export async function fastifyEndpoint(consumerOptions: ConsumerOptions): Promise<PushEndpoint> {
  const consumer = createConsumer(consumerOptions);
  const app = Fastify();
  await app.register(heraldConsumerPlugin, { consumer, prefix: '/events' });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `${address}/events/`,
    close: async () => {
      await app.close();
      await consumer.close();
    },
  };
}

/**
 * A Pub/Sub push request body exactly as Pub/Sub sends it (wrapped payload): `data` base64, both
 * spellings of the metadata, and `deliveryAttempt` when the subscription has a dead-letter policy.
 */
export function pubSubPushBody(data: string, extra: { deliveryAttempt?: number; attributes?: Record<string, string> } = {}): string {
  return JSON.stringify({
    message: {
      attributes: extra.attributes ?? { 'content-type': 'application/cloudevents+json' },
      data: Buffer.from(data).toString('base64'),
      messageId: '2070443601311540',
      message_id: '2070443601311540',
      publishTime: '2021-02-26T19:13:55.749Z',
      publish_time: '2021-02-26T19:13:55.749Z',
    },
    subscription: 'projects/myproject/subscriptions/mysubscription',
    ...(extra.deliveryAttempt === undefined ? {} : { deliveryAttempt: extra.deliveryAttempt }),
  });
}

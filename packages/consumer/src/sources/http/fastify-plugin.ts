import type { FastifyPluginAsync } from 'fastify';
import type { Consumer } from '../../consumer/types.js';
import { createHttpDeliveryHandler, DEFAULT_HTTP_BODY_LIMIT_BYTES, type HttpDeliveryOptions } from './http-delivery.js';

export interface HeraldConsumerPluginOptions extends HttpDeliveryOptions {
  readonly consumer: Consumer;
  /** Route of the endpoint inside the plugin's prefix. Default `/`. */
  readonly path?: string;
  /** Largest body accepted; default 14 MiB (DEFAULT_HTTP_BODY_LIMIT_BYTES: a 10 MB Pub/Sub message, pushed). */
  readonly bodyLimitBytes?: number;
}

/**
 * An encapsulated Fastify plugin serving Event Grid and Pub/Sub push: `app.register(heraldConsumerPlugin,
 * { consumer, prefix: '/events' })`. Bodies reach the parser as raw bytes (the plugin replaces the
 * content-type parsers in its own context only), so every CloudEvents media type and binary mode
 * are read the same way as by the other sources.
 */
export const heraldConsumerPlugin: FastifyPluginAsync<HeraldConsumerPluginOptions> = async (fastify, options) => {
  const handle = createHttpDeliveryHandler(options.consumer, options);
  const path = options.path ?? '/';
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_HTTP_BODY_LIMIT_BYTES;
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
  fastify.route({
    // Other methods too, so they get the same 405 (with Allow) as from the node:http handler.
    method: ['POST', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'DELETE'],
    url: path,
    bodyLimit,
    handler: async (request, reply) => {
      const result = await handle({ method: request.method, url: request.url, headers: request.headers, body: request.body as Buffer | undefined });
      reply.code(result.statusCode).headers(result.headers);
      return reply.send(result.body);
    },
  });
};

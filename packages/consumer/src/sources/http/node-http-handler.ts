import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Consumer } from '../../consumer/types.js';
import { silentLogger, type Logger } from '../../logger.js';
import { createHttpDeliveryHandler, DEFAULT_HTTP_BODY_LIMIT_BYTES, type HttpDeliveryOptions } from './http-delivery.js';
import { errorReply, type HttpDeliveryReply } from './http-reply.js';

export interface NodeHttpHandlerOptions extends HttpDeliveryOptions {
  /** Only this path is served (query ignored); others answer 404. Default `/` (as the Fastify plugin's). */
  readonly path?: string;
  /** Largest body accepted; default 14 MiB (DEFAULT_HTTP_BODY_LIMIT_BYTES: a 10 MB Pub/Sub message, pushed). */
  readonly bodyLimitBytes?: number;
  readonly logger?: Logger;
}

class BodyTooLarge extends Error {}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, reply: HttpDeliveryReply): void {
  response.writeHead(reply.statusCode, reply.headers);
  response.end(reply.body);
}

/** A `node:http` request listener for Event Grid and Pub/Sub push: `http.createServer(createNodeHttpHandler(consumer))`. */
export function createNodeHttpHandler(consumer: Consumer, options: NodeHttpHandlerOptions = {}): (request: IncomingMessage, response: ServerResponse) => void {
  const handle = createHttpDeliveryHandler(consumer, options);
  const limit = options.bodyLimitBytes ?? DEFAULT_HTTP_BODY_LIMIT_BYTES;
  const logger = options.logger ?? silentLogger;
  const servedPath = options.path ?? '/';

  return (request, response) => {
    const target = request.url ?? '/';
    const path = target.split('?')[0];
    if (path !== servedPath) {
      request.resume();
      return send(response, errorReply(404, 'ResourceNotFound', `${path} is not a delivery endpoint`));
    }
    readBody(request, limit)
      .then((body) => handle({ method: request.method ?? 'GET', url: target, headers: request.headers, body: body.length === 0 ? undefined : body }))
      .then(
        (reply) => send(response, reply),
        (error: unknown) => {
          if (error instanceof BodyTooLarge) return send(response, errorReply(413, 'RequestEntityTooLarge', `the body exceeds ${limit} bytes`));
          logger.error({ err: error }, 'delivery endpoint failed');
          send(response, errorReply(500, 'General', 'internal error'));
        },
      );
  };
}

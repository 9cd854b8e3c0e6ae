import { AsyncLocalStorage } from 'node:async_hooks';
import type { Project } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../auth/types.js';
import { newCorrelationId } from '../../http/correlation.js';

/** What an Extension call needs from the request that writes: its correlation id, project and token. */
export interface WritingRequest {
  correlationId: string;
  project: Project | undefined;
  auth: AuthContext | undefined;
}

/**
 * The request a write belongs to, for the write hook below the resources (extension-documents.ts):
 * the DocumentStore API carries only a WriteContext, and §4.4.10 wants the request's
 * `X-Correlation-ID` forwarded to Extensions. One AsyncLocalStorage per gateway (not a global),
 * entered by a preHandler hook, so REST and GraphQL writes alike run inside it.
 */
export class RequestScope {
  private readonly storage = new AsyncLocalStorage<FastifyRequest>();

  install(app: FastifyInstance): void {
    // Callback style: the rest of the request's lifecycle runs inside `run`. The request is kept,
    // not copied: hooks after this one (the project resolver) fill in what is read at call time.
    app.addHook('preHandler', (request, _reply, done) => this.storage.run(request, done));
  }

  /** The writing request; outside a request (background sweeps), a fresh correlation id. */
  current(): WritingRequest {
    const request = this.storage.getStore();
    if (request === undefined) return { correlationId: newCorrelationId(), project: undefined, auth: undefined };
    return { correlationId: request.id, project: request.project, auth: request.auth };
  }
}

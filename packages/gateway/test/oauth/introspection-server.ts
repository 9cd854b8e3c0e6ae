import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake endpoint does for one token. */
export type Behaviour =
  | { kind: 'json'; status?: number; body: unknown }
  | { kind: 'raw'; status: number; body: string }
  /** Never answers; the request ends when the caller gives up (the test waits on that event). */
  | { kind: 'hang' };

export interface ReceivedRequest {
  token: string;
  authorization: string | undefined;
  correlationId: string | undefined;
  contentType: string | undefined;
}

/**
 * An RFC 7662 introspection endpoint on 127.0.0.1 for tests: answers per token as told, records
 * every request, and reports when a hanging request was abandoned by its caller.
 */
export class IntrospectionServer {
  readonly received: ReceivedRequest[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly abandonedWaiters: Array<() => void> = [];
  private readonly server = createServer((request, response) => void this.handle(request, response));
  url = '';

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/introspect`;
    return this;
  }

  answer(token: string, behaviour: Behaviour): void {
    this.behaviours.set(token, behaviour);
  }

  callsFor(token: string): number {
    return this.received.filter((request) => request.token === token).length;
  }

  /** Resolves when the next hanging request is abandoned by the client (its socket closes). */
  nextAbandoned(): Promise<void> {
    return new Promise((resolve) => this.abandonedWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    const token = new URLSearchParams(text).get('token') ?? '';
    this.received.push({
      token,
      authorization: request.headers.authorization,
      correlationId: request.headers['x-correlation-id'] as string | undefined,
      contentType: request.headers['content-type'],
    });
    const behaviour = this.behaviours.get(token) ?? { kind: 'json', body: { active: false } };
    switch (behaviour.kind) {
      case 'hang':
        response.on('close', () => this.abandonedWaiters.shift()?.());
        return;
      case 'raw':
        response.writeHead(behaviour.status, { 'Content-Type': 'text/plain' }).end(behaviour.body);
        return;
      case 'json':
        response.writeHead(behaviour.status ?? 200, { 'Content-Type': 'application/json' }).end(JSON.stringify(behaviour.body));
        return;
    }
  }
}

import { status as GrpcStatus, type handleUnaryCall, type ServerUnaryCall } from '@grpc/grpc-js';
import type { PeerFault } from '../faults.js';
import { faultStatus, RpcFailure, type RpcError, type StatusFaultKind } from './status.js';
import type { PubSubState } from './state.js';

/** The RPCs the peer implements; the others answer UNIMPLEMENTED. */
export type PubSubRpc =
  | 'CreateTopic'
  | 'GetTopic'
  | 'DeleteTopic'
  | 'Publish'
  | 'CreateSubscription'
  | 'GetSubscription'
  | 'DeleteSubscription'
  | 'Pull'
  | 'StreamingPull'
  | 'Acknowledge'
  | 'ModifyAckDeadline';

/** What the service handlers share with the peer. */
export interface RpcContext {
  readonly state: PubSubState;
  readonly maxRequestBytes: number;
  readonly maxMessagesPerPublish: number;
  /** How long a Pull call waits for messages before answering empty. */
  readonly pullWaitMs: number;
  wireSize(request: object): number | undefined;
  /** Counts the call and returns the fault it must meet, if any. */
  begin(rpc: PubSubRpc): PeerFault | undefined;
  /** Cuts the connection a call arrived on. */
  dropConnection(peer: string): void;
}

/** The status a fault answers `request` with. */
export function faultAnswer(kind: StatusFaultKind, request: object, context: RpcContext): RpcError {
  return faultStatus(kind, { resource: resourceOf(request), sizeBytes: context.wireSize(request) ?? 0, limitBytes: context.maxRequestBytes });
}

/** The resource a request names, for NOT_FOUND details. */
function resourceOf(request: object): string {
  const named = request as { topic?: unknown; subscription?: unknown; name?: unknown };
  for (const value of [named.subscription, named.topic, named.name]) if (typeof value === 'string' && value !== '') return value;
  return 'unknown';
}

/**
 * A unary handler with the peer's fault handling around it. The handler answers by returning the
 * response or throwing an `RpcFailure`; anything else it throws becomes INTERNAL, so a peer bug
 * fails the test visibly instead of hanging it.
 */
export function unary<Request extends object, Response>(
  rpc: PubSubRpc,
  context: RpcContext,
  handler: (request: Request, call: ServerUnaryCall<Request, Response>) => Response | Promise<Response>,
): handleUnaryCall<Request, Response> {
  return (call, callback) => {
    const fault = context.begin(rpc);
    if (fault?.kind === 'hang') return; // never answered; the client's deadline or stop() ends it
    if (fault?.kind === 'drop-connection') return context.dropConnection(call.getPeer());
    if (fault !== undefined) return callback(faultAnswer(fault.kind, call.request, context));
    Promise.resolve()
      .then(() => handler(call.request, call))
      .then(
        (response) => callback(null, response),
        (error: unknown) => callback(error instanceof RpcFailure ? error.status : { code: GrpcStatus.INTERNAL, details: `peer bug: ${String(error)}` }),
      );
  };
}

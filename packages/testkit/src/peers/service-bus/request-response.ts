import rhea from 'rhea';
import type { FaultSchedule } from '../faults.js';
import { Condition } from './conditions.js';
import { scopeCovers, type ConnectionState } from './connection-state.js';
import type { Entity, LockedSettlement } from './entity.js';
import { normalizePath } from './entity-store.js';
import { lockTokenFromUuid } from './lock-token.js';
import type { AmqpMessage } from './message-codec.js';
import { verifySasToken, type SharedAccessKey } from './sas-token.js';

/**
 * The request/response nodes: `$cbs` (claims-based security, AMQP CBS draft: put-token) and
 * `<entity>/$management` (Service Bus management operations). A request carries `operation` in its
 * application properties and `reply_to` naming the client's receiver link; the answer goes back on
 * that link with `correlation_id` = the request's `message_id` and a `status-code`.
 */
export interface Reply {
  readonly statusCode: number;
  readonly description: string;
  /** Read by the SDK in preference to mapping the status code. */
  readonly errorCondition?: string;
  readonly body?: unknown;
}

/** Sends `answer` back for `request`; false when the client's reply link is gone. */
export function sendReply(state: ConnectionState, request: AmqpMessage, answer: Reply): boolean {
  const replyTo = request['reply_to'];
  const link = typeof replyTo === 'string' ? state.replyLinks.get(replyTo) : undefined;
  if (link === undefined || !link.is_open()) return false;
  link.send({
    correlation_id: request['message_id'],
    to: replyTo,
    application_properties: {
      'status-code': answer.statusCode,
      'status-description': answer.description,
      ...(answer.errorCondition !== undefined ? { 'error-condition': answer.errorCondition } : {}),
    },
    body: answer.body ?? null,
  });
  return true;
}

const SAS_TOKEN_TYPE = 'servicebus.windows.net:sastoken';

export interface CbsContext {
  readonly accessKey: SharedAccessKey;
  readonly faults: FaultSchedule;
  readonly now: Date;
}

/** put-token: verifies the SAS token for real and records the claim on the connection. */
export function putToken(request: AmqpMessage, state: ConnectionState, context: CbsContext): Reply {
  const properties = applicationProperties(request);
  if (properties['operation'] !== 'put-token') {
    return { statusCode: 400, description: `Unsupported $cbs operation '${String(properties['operation'])}'.` };
  }
  if (context.faults.takeIf(['bad-credentials'])) return unauthorized('InvalidSignature: the token signature is not valid.');
  if (properties['type'] !== SAS_TOKEN_TYPE) return unauthorized(`Only ${SAS_TOKEN_TYPE} tokens are accepted by this peer.`);
  if (typeof request.body !== 'string') return { statusCode: 400, description: 'The token must be a string.' };
  const verdict = verifySasToken(request.body, context.accessKey, context.now);
  if (!verdict.ok) return unauthorized(verdict.reason);
  const scope = scopePath(verdict.resource);
  const audience = typeof properties['name'] === 'string' ? properties['name'] : '';
  if (scope === undefined) return unauthorized('The token resource is not a URI.');
  const audiencePath = scopePath(audience);
  if (audiencePath === undefined || !scopeCovers(scope, audiencePath)) {
    return unauthorized(`The token for '${verdict.resource}' does not cover the audience '${audience}'.`);
  }
  state.claims.set(scope, verdict.expiresAt);
  return { statusCode: 202, description: 'Accepted' };
}

function unauthorized(description: string): Reply {
  // 401 alone would do (the SDK maps it to amqp:unauthorized-access); the condition makes it explicit.
  return { statusCode: 401, description, errorCondition: Condition.unauthorizedAccess };
}

/** The entity path part of a resource URI such as `sb://host:port/queue`, lower-cased. */
function scopePath(resource: string): string | undefined {
  try {
    return normalizePath(decodeURIComponent(new URL(resource).pathname)).toLowerCase();
  } catch {
    return undefined;
  }
}

const TIMESTAMP_TYPECODE = 0x83;

/** Management operations on an entity's `$management` node: lock renewal and settlement by lock token. */
export function managementRequest(request: AmqpMessage, entity: Entity): Reply {
  const operation = applicationProperties(request)['operation'];
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
  const lockTokens = lockTokensOf(body['lock-tokens']);
  switch (operation) {
    case 'com.microsoft:renew-lock': {
      const expirations = lockTokens.map((token) => entity.renewLock(token));
      if (lockTokens.length === 0 || expirations.some((expiry) => expiry === undefined)) return lockLost();
      return {
        statusCode: 200,
        description: 'OK',
        body: { expirations: rhea.types.wrap_array(expirations, TIMESTAMP_TYPECODE, undefined) },
      };
    }
    case 'com.microsoft:update-disposition': {
      const status = body['disposition-status'];
      const results = lockTokens.map((token) => settleByManagement(entity, token, status, body));
      if (results.some((result) => result === undefined)) {
        return { statusCode: 400, description: `Unknown disposition status '${String(status)}'.` };
      }
      if (lockTokens.length === 0 || results.some((result) => result?.ok === false)) return lockLost();
      return { statusCode: 200, description: 'OK' };
    }
    default:
      return {
        statusCode: 501,
        description: `The operation '${String(operation)}' is not supported by this peer.`,
        errorCondition: Condition.notImplemented,
      };
  }
}

function settleByManagement(entity: Entity, lockToken: string, status: unknown, body: Record<string, unknown>): LockedSettlement | undefined {
  const properties = body['properties-to-modify'] as Record<string, unknown> | undefined;
  switch (status) {
    case 'completed':
      return entity.complete(lockToken);
    case 'abandoned':
      return entity.abandon(lockToken, properties);
    case 'suspended': // the wire name of dead-lettering
      return entity.deadLetter(lockToken, optionalString(body['deadletter-reason']), optionalString(body['deadletter-description']));
    case 'defered': // sic: the service's spelling
      return entity.defer(lockToken);
    default:
      return undefined;
  }
}

function lockLost(): Reply {
  return {
    statusCode: 410,
    description: 'The lock supplied is invalid. Either the lock expired, or the message has already been removed from the queue.',
    errorCondition: Condition.messageLockLost,
  };
}

function lockTokensOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((token: unknown) => {
    if (Buffer.isBuffer(token)) return [lockTokenFromUuid(token)];
    return typeof token === 'string' ? [token] : [];
  });
}

function applicationProperties(message: AmqpMessage): Record<string, unknown> {
  const properties = message['application_properties'] as Record<string, unknown> | undefined;
  return properties ?? {};
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

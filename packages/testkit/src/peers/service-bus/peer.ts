import { randomBytes } from 'node:crypto';
import type { AddressInfo, Server, Socket } from 'node:net';
import rhea, { type Connection, type EventContext, type Receiver, type Sender } from 'rhea';
import { FaultSchedule, type FaultInjector } from '../faults.js';
import { Condition, entityNotFound, faultFailure, type AmqpFailure } from './conditions.js';
import { isAuthorized, stateOf } from './connection-state.js';
import { DeliveryDispatcher } from './dispatcher.js';
import type { Entity } from './entity.js';
import { EntityStore, managementEntityPath } from './entity-store.js';
import { decodeTransfer, encodeInput, encodedSize, type AmqpMessage, type ServiceBusMessageInput } from './message-codec.js';
import type { ServiceBusPeerMessage, ServiceBusSettlement } from './peer-message.js';
import { managementRequest, putToken, sendReply } from './request-response.js';
import { localAttach, socketOf, terminusAddress } from './rhea-internals.js';

export interface ServiceBusPeerOptions {
  /** Port on 127.0.0.1; default: any free port. */
  readonly port?: number;
  readonly keyName?: string;
  /** The shared access key; default: a random 32-byte base64 key, like the service issues. */
  readonly key?: string;
  /** Queues, topics and `topic/Subscriptions/name` paths that exist from the start. */
  readonly entities?: readonly string[];
  /** Maximum message (and batch) size, announced on sender links: 262144 (Standard tier). */
  readonly maxMessageSize?: number;
  /** Peek-lock duration: 60 s (the service default). */
  readonly lockDurationMs?: number;
  /** Failed deliveries before a message is dead-lettered: 10 (the service default). */
  readonly maxDeliveryCount?: number;
}

export interface ServiceBusPeer {
  /** `sb://127.0.0.1:PORT` */
  readonly endpoint: string;
  readonly port: number;
  readonly keyName: string;
  readonly key: string;
  /**
   * Each fault applies where the service would report it, and is consumed only there:
   * - a CBS put-token takes `bad-credentials` (status 401 → UnauthorizedAccess);
   * - a link attach takes `unknown-entity` (detach with amqp:not-found → MessagingEntityNotFound);
   * - a send (one transfer: a message or a batch) takes every kind: `unknown-entity`, `bad-credentials`,
   *   `throttled`, `server-error`, `payload-too-large` reject it (MessagingEntityNotFound,
   *   UnauthorizedAccess, ServiceBusy, GeneralError, MessageSizeExceeded); `hang` never settles it
   *   (the SDK times out: ServiceTimeout); `drop-connection` destroys the socket, nothing is stored;
   * - a settlement of a received message (complete/abandon/dead-letter/defer on the link) takes all
   *   but `payload-too-large`, with the same errors; the message stays locked.
   */
  readonly faults: FaultInjector;
  /** A connection string for the SDK (plain TCP via `UseDevelopmentEmulator=true`); namespace-wide without `entity`. */
  connectionString(entity?: string): string;
  createEntity(path: string): void;
  /** Deletes the entity and detaches its links with `amqp:not-found`, as the service does. */
  deleteEntity(path: string): void;
  /** Puts a message into an entity as if a sender had sent it. */
  enqueue(entity: string, message: ServiceBusMessageInput): ServiceBusPeerMessage;
  /** Every message the entity accepted, in order (as it was on arrival). */
  received(entity: string): readonly ServiceBusPeerMessage[];
  /** Resolves with the entity's received messages once at least `count` arrived. */
  waitFor(entity: string, count: number, timeoutMs?: number): Promise<ServiceBusPeerMessage[]>;
  /** Messages still in the entity: available, locked or deferred. */
  pending(entity: string): ServiceBusPeerMessage[];
  /** Messages in the entity's dead-letter queue. */
  deadLetters(entity: string): ServiceBusPeerMessage[];
  /** What receivers did with the entity's messages, in order (including lock expiries). */
  settlements(entity: string): readonly ServiceBusSettlement[];
  waitForSettlements(entity: string, count: number, timeoutMs?: number): Promise<ServiceBusSettlement[]>;
  /** Destroys every client connection's socket now (the SDK reconnects on its next operation). */
  dropConnections(): void;
  stop(): Promise<void>;
}

/** How long a wait for arrivals lasts unless told: a bound for failing tests, generous for a loaded 2-core CI machine. */
const DEFAULT_WAIT_MS = 15_000;
/** How long stop() lets clients answer the close frame before it destroys their sockets. */
const STOP_GRACE_MS = 500;
const ALL_FAULTS = ['unknown-entity', 'bad-credentials', 'throttled', 'server-error', 'hang', 'drop-connection', 'payload-too-large'] as const;

/** Starts a local Service Bus namespace speaking AMQP 1.0 with CBS, for the unmodified `@azure/service-bus` SDK. */
export async function startServiceBusPeer(options: ServiceBusPeerOptions = {}): Promise<ServiceBusPeer> {
  const accessKey = { keyName: options.keyName ?? 'RootManageSharedAccessKey', key: options.key ?? randomBytes(32).toString('base64') };
  const maxMessageSize = options.maxMessageSize ?? 262_144;
  const faults = new FaultSchedule();
  let port = 0;
  const resourceUri = (path: string): string => `sb://127.0.0.1:${port}/${path}`;
  const dispatcher = new DeliveryDispatcher({ faults, resourceUri });
  const store = new EntityStore({ lockDurationMs: options.lockDurationMs ?? 60_000, maxDeliveryCount: options.maxDeliveryCount ?? 10 }, (entity) =>
    dispatcher.schedule(entity),
  );
  for (const path of options.entities ?? []) store.create(path);
  /** Links sending into each entity, to detach them when it is deleted. */
  const sendLinks = new Map<Entity, Set<Receiver>>();
  const connections = new Set<Connection>();
  const sockets = new Set<Socket>();

  const container = rhea.create_container({ id: 'herald-service-bus-peer' });
  container.sasl_server_mechanisms.enable_anonymous();

  /** Refuses a link as AMQP prescribes: attach without a terminus, then detach with the error. */
  function refuse(link: Sender | Receiver, failure: AmqpFailure): void {
    link.close(failure);
  }

  function authorizeLink(link: Sender | Receiver, path: string): boolean {
    if (isAuthorized(stateOf(link.connection), path, new Date())) return true;
    refuse(link, {
      condition: Condition.unauthorizedAccess,
      description: `Unauthorized access to '${resourceUri(path)}': no valid token was put on $cbs for it.`,
    });
    return false;
  }

  /** A client sender attached: we receive on $cbs, on a $management node, or into an entity. */
  container.on('receiver_open', (context: EventContext) => {
    const link = context.receiver;
    if (link === undefined) return;
    const address = terminusAddress(link.target) ?? '';
    if (address === '$cbs') {
      link.set_target({ address });
      link.on('message', (message: EventContext) => onCbsRequest(message));
      return;
    }
    const managedPath = managementEntityPath(address);
    if (!authorizeLink(link, address)) return;
    const entity = store.find(managedPath ?? address);
    if (faults.takeIf(['unknown-entity']) || entity === undefined) {
      refuse(link, entityNotFound(resourceUri(managedPath ?? address)));
      return;
    }
    link.set_target({ address });
    if (managedPath !== undefined) {
      link.on('message', (message: EventContext) => onManagementRequest(message, managedPath));
      return;
    }
    // The SDK sizes batches by the max-message-size of our attach; without it batches are unlimited.
    localAttach(link).max_message_size = maxMessageSize;
    const links = sendLinks.get(entity) ?? new Set<Receiver>();
    links.add(link);
    sendLinks.set(entity, links);
    link.on('receiver_close', () => links.delete(link));
    link.on('message', (message: EventContext) => onSend(message, address));
  });

  /** A client receiver attached: a reply link of $cbs/$management, or a consumer of an entity. */
  container.on('sender_open', (context: EventContext) => {
    const link = context.sender;
    if (link === undefined) return;
    const address = terminusAddress(link.source) ?? '';
    if (address === '$cbs' || managementEntityPath(address) !== undefined) {
      link.set_source({ address });
      const replyLinks = stateOf(link.connection).replyLinks;
      replyLinks.set(link.name, link);
      link.on('sender_close', () => replyLinks.delete(link.name));
      return;
    }
    if (!authorizeLink(link, address)) return;
    const entity = store.find(address);
    if (faults.takeIf(['unknown-entity']) || entity === undefined) {
      refuse(link, entityNotFound(resourceUri(address)));
      return;
    }
    if (hasSessionFilter(link.source)) {
      refuse(link, { condition: Condition.notImplemented, description: 'Message sessions are not supported by this peer.' });
      return;
    }
    link.set_source({ address });
    // Echo the settle modes the receiver asked for: receiveAndDelete = pre-settled sends.
    const attach = localAttach(link);
    attach.snd_settle_mode = link.snd_settle_mode;
    attach.rcv_settle_mode = link.rcv_settle_mode;
    dispatcher.attach(link, entity, link.snd_settle_mode === 1 ? 'receiveAndDelete' : 'peekLock');
  });

  function onCbsRequest(context: EventContext): void {
    const { message, delivery, connection } = context;
    if (message === undefined || delivery === undefined) return;
    delivery.accept();
    const state = stateOf(connection);
    sendReply(state, message, putToken(message, state, { accessKey, faults, now: new Date() }));
  }

  function onManagementRequest(context: EventContext, entityPath: string): void {
    const { message, delivery, connection } = context;
    if (message === undefined || delivery === undefined) return;
    delivery.accept();
    const entity = store.find(entityPath);
    const answer =
      entity === undefined
        ? { statusCode: 404, description: entityNotFound(resourceUri(entityPath)).description, errorCondition: Condition.notFound }
        : managementRequest(message, entity);
    sendReply(stateOf(connection), message, answer);
  }

  /** One transfer from a sender: a single message (format 0) or a batch (format 0x80013700). */
  function onSend(context: EventContext, entityPath: string): void {
    const { delivery, connection } = context;
    if (delivery === undefined) return;
    const fault = faults.takeIf(ALL_FAULTS);
    if (fault?.kind === 'hang') return; // never settled: the SDK's send times out
    if (fault?.kind === 'drop-connection') {
      socketOf(connection)?.destroy();
      return;
    }
    if (fault !== undefined) {
      delivery.reject(faultFailure(fault.kind, resourceUri(entityPath)));
      return;
    }
    const entity = store.find(entityPath);
    if (entity === undefined) {
      delivery.reject(entityNotFound(resourceUri(entityPath)));
      return;
    }
    const payload = (context as { message?: AmqpMessage | Buffer }).message;
    const format = (context as { format?: number }).format;
    if (payload === undefined) return;
    const decoded = decodeTransfer(payload, format);
    if (!decoded.ok) {
      delivery.reject({ condition: Condition.decodeError, description: decoded.description });
      return;
    }
    if (decoded.payloadBytes > maxMessageSize) {
      delivery.reject({
        condition: Condition.messageSizeExceeded,
        description: `The received message (delivery-id:${delivery.id}, size:${decoded.payloadBytes} bytes) exceeds the limit (${maxMessageSize} bytes) currently allowed on the link.`,
      });
      return;
    }
    for (const message of decoded.messages) {
      entity.enqueue(message.amqp, { sizeInBytes: message.encodedBytes, arrivedInBatch: decoded.batched });
    }
    delivery.accept();
  }

  container.on('connection_open', (context: EventContext) => connections.add(context.connection));
  container.on('disconnected', (context: EventContext) => {
    connections.delete(context.connection);
    // Its links are gone; locks they held stay until they expire, as on the service.
    context.connection.each_link((link: Sender | Receiver) => {
      if (link.is_sender()) dispatcher.detach(link as Sender);
    });
  });
  // rhea re-emits unhandled link/session/connection errors on the container and throws when
  // nobody listens; a client closing a link with an error is normal here.
  container.on('error', () => undefined);

  const server: Server = container.listen({
    port: options.port ?? 0,
    host: '127.0.0.1',
    // Read through rhea's option chain by every link: settle explicitly, and keep `modified`
    // (abandon/defer) apart from `released`.
    autoaccept: false,
    treat_modified_as_released: false,
  } as Parameters<typeof container.listen>[0]);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    if (server.listening) return resolve();
    server.once('listening', resolve);
    server.once('error', reject);
  });
  port = (server.address() as AddressInfo).port;

  const entityOf = (path: string): Entity => store.get(path);

  return {
    endpoint: `sb://127.0.0.1:${port}`,
    port,
    keyName: accessKey.keyName,
    key: accessKey.key,
    faults,
    connectionString: (entity) =>
      `Endpoint=sb://127.0.0.1:${port};SharedAccessKeyName=${accessKey.keyName};SharedAccessKey=${accessKey.key};` +
      `${entity !== undefined ? `EntityPath=${entity};` : ''}UseDevelopmentEmulator=true`,
    createEntity: (path) => void store.create(path),
    deleteEntity(path) {
      for (const entity of store.delete(path)) {
        for (const link of sendLinks.get(entity) ?? []) link.close(entityNotFound(resourceUri(entity.path)));
        sendLinks.delete(entity);
        dispatcher.closeEntity(entity);
        entity.close(`the entity '${entity.path}' was deleted`);
      }
    },
    enqueue(entity, message) {
      const amqp = encodeInput(message);
      return entityOf(entity).enqueue(amqp, { sizeInBytes: encodedSize(amqp), arrivedInBatch: false });
    },
    received: (entity) => entityOf(entity).arrivals.items,
    waitFor: (entity, count, timeoutMs = DEFAULT_WAIT_MS) => entityOf(entity).arrivals.waitFor(count, timeoutMs, `messages in '${entity}'`),
    pending: (entity) => entityOf(entity).pending(),
    deadLetters: (entity) => deadLetterQueueOf(entityOf(entity)).pending(),
    settlements: (entity) => entityOf(entity).settlementLog.items,
    waitForSettlements: (entity, count, timeoutMs = DEFAULT_WAIT_MS) => entityOf(entity).settlementLog.waitFor(count, timeoutMs, `settlements in '${entity}'`),
    dropConnections() {
      for (const connection of connections) socketOf(connection)?.destroy();
    },
    async stop() {
      for (const entity of store.all()) entity.close('the Service Bus peer stopped');
      // Close connections the way the service does when it goes away (a close frame with
      // amqp:connection:forced), so clients notice at once; destroy what does not close promptly.
      const closed = [...sockets].map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())));
      for (const connection of connections) {
        connection.close({ condition: 'amqp:connection:forced', description: 'The Service Bus peer is shutting down.' });
      }
      const grace = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, STOP_GRACE_MS);
      await Promise.all(closed);
      clearTimeout(grace);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function deadLetterQueueOf(entity: Entity): Entity {
  if (entity.deadLetterQueue === undefined) throw new Error(`'${entity.path}' is itself a dead-letter queue.`);
  return entity.deadLetterQueue;
}

/** Session receivers ask for a session with this source filter. */
function hasSessionFilter(source: unknown): boolean {
  if (typeof source !== 'object' || source === null || !('filter' in source)) return false;
  const filter = (source as { filter: unknown }).filter;
  return typeof filter === 'object' && filter !== null && 'com.microsoft:session-filter' in filter;
}

import { status as GrpcStatus, type ServerDuplexStream, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { isSubscriptionName, isTopicName } from './names.js';
import { faultAnswer, unary, type RpcContext } from './rpc.js';
import { alreadyExists, invalidArgument, notFound, RpcFailure, type RpcError } from './status.js';
import type { Receiver, SubscriptionQueue } from './subscription-queue.js';
import type {
  AcknowledgeRequest,
  Empty,
  ModifyAckDeadlineRequest,
  PullRequest,
  PullResponse,
  ReceivedMessage,
  StreamingPullRequest,
  StreamingPullResponse,
  SubscriptionRequest,
  WireSubscription,
} from './wire.js';

/** Ack deadlines the service accepts, in seconds (Subscription.ack_deadline_seconds). */
const MIN_ACK_DEADLINE = 10;
const MAX_ACK_DEADLINE = 600;
const DEFAULT_ACK_DEADLINE = 10;

/** google.pubsub.v1.Subscriber: subscriptions, Pull, StreamingPull, Acknowledge, ModifyAckDeadline. */
export function subscriberService(context: RpcContext): UntypedServiceImplementation {
  const { state } = context;

  function queueOf(subscription: string): SubscriptionQueue {
    if (!isSubscriptionName(subscription)) throw invalidArgument(`Invalid [subscriptions] name: (name=${subscription})`);
    const queue = state.subscription(subscription);
    if (queue === undefined) throw notFound(subscription);
    return queue;
  }

  const describe = (queue: SubscriptionQueue): Partial<WireSubscription> => ({
    name: queue.name,
    topic: queue.topic,
    ackDeadlineSeconds: queue.settings.ackDeadlineSeconds,
    enableMessageOrdering: queue.settings.messageOrdering,
  });

  return {
    CreateSubscription: unary<WireSubscription, Partial<WireSubscription>>('CreateSubscription', context, (request) => {
      if (!isSubscriptionName(request.name)) throw invalidArgument(`Invalid [subscriptions] name: (name=${request.name})`);
      if (!isTopicName(request.topic)) throw invalidArgument(`Invalid [topics] name: (name=${request.topic})`);
      if (!state.hasTopic(request.topic)) throw notFound(request.topic);
      const ackDeadlineSeconds = request.ackDeadlineSeconds === 0 ? DEFAULT_ACK_DEADLINE : request.ackDeadlineSeconds;
      checkAckDeadline(ackDeadlineSeconds, MIN_ACK_DEADLINE);
      const queue = state.createSubscription(request.name, request.topic, {
        ackDeadlineSeconds,
        messageOrdering: request.enableMessageOrdering,
        deadLetter: request.deadLetterPolicy !== null,
      });
      if (queue === undefined) throw alreadyExists('Resource already exists in the project (resource=subscription).');
      return describe(queue);
    }),

    GetSubscription: unary<SubscriptionRequest, Partial<WireSubscription>>('GetSubscription', context, ({ subscription }) => describe(queueOf(subscription))),

    DeleteSubscription: unary<SubscriptionRequest, Empty>('DeleteSubscription', context, ({ subscription }) => {
      queueOf(subscription);
      state.deleteSubscription(subscription);
      return {};
    }),

    Acknowledge: unary<AcknowledgeRequest, Empty>('Acknowledge', context, ({ subscription, ackIds }) => {
      queueOf(subscription).acknowledge(ackIds);
      return {};
    }),

    ModifyAckDeadline: unary<ModifyAckDeadlineRequest, Empty>('ModifyAckDeadline', context, (request) => {
      const queue = queueOf(request.subscription);
      checkAckDeadline(request.ackDeadlineSeconds, 0);
      queue.modifyAckDeadline(request.ackIds, request.ackDeadlineSeconds);
      return {};
    }),

    Pull: unary<PullRequest, PullResponse>('Pull', context, (request, call) => {
      const queue = queueOf(request.subscription);
      if (request.maxMessages <= 0) throw invalidArgument('max_messages must be greater than 0.');
      return pull(queue, request, context.pullWaitMs, (listener) => call.once('cancelled', listener));
    }),

    StreamingPull: (call: ServerDuplexStream<StreamingPullRequest, StreamingPullResponse>) => streamingPull(call, context),
  };
}

/**
 * A Pull answers at once with what is available; otherwise it waits up to `waitMs` for messages,
 * like the service's long poll, and answers empty when none came (or at once with
 * `returnImmediately`).
 */
function pull(queue: SubscriptionQueue, request: PullRequest, waitMs: number, onCancel: (listener: () => void) => void): Promise<PullResponse> {
  return new Promise((resolve) => {
    const receiver: Receiver = {
      limits: { maxMessages: request.maxMessages, maxBytes: 0 },
      ackDeadlineSeconds: () => queue.settings.ackDeadlineSeconds,
      deliver: (messages) => finish(messages),
    };
    const available = queue.takeNow(receiver);
    if (available.length > 0 || request.returnImmediately) return resolve({ receivedMessages: available });

    let settled = false;
    const stop = () => {
      settled = true;
      clearTimeout(timer);
      queue.removeReceiver(receiver);
    };
    const finish = (messages: ReceivedMessage[]) => {
      if (settled) return;
      stop();
      resolve({ receivedMessages: messages });
    };
    const timer = setTimeout(() => finish([]), waitMs);
    queue.addReceiver(receiver);
    // A cancelled call must not lease messages nobody will see.
    onCancel(stop);
  });
}

/**
 * StreamingPull: the first request names the subscription and the client's flow control; later
 * requests carry acks, deadline changes and keep-alives (empty requests). The peer pushes messages
 * whenever the stream has room under its flow control.
 */
function streamingPull(call: ServerDuplexStream<StreamingPullRequest, StreamingPullResponse>, context: RpcContext): void {
  const fault = context.begin('StreamingPull');
  if (fault?.kind === 'drop-connection') return context.dropConnection(call.getPeer());
  let open: { queue: SubscriptionQueue; receiver: Receiver } | undefined;
  let ended = false;
  let streamAckDeadline = DEFAULT_ACK_DEADLINE;

  const close = () => {
    if (ended) return;
    ended = true;
    if (open !== undefined) open.queue.removeReceiver(open.receiver);
  };
  const fail = (status: RpcError) => {
    close();
    // grpc-js turns an 'error' emitted on a server stream into the call's final status.
    call.emit('error', status);
  };

  call.on('data', (request: StreamingPullRequest) => {
    if (ended || fault?.kind === 'hang') return; // a hung stream reads and never answers
    try {
      if (open === undefined) {
        if (fault !== undefined) return fail(faultAnswer(fault.kind, request, context));
        open = openStream(request);
      }
      applyStreamRequest(open.queue, request);
    } catch (error) {
      fail(error instanceof RpcFailure ? error.status : { code: GrpcStatus.INTERNAL, details: `peer bug: ${String(error)}` });
    }
  });
  // The client half-closed: the service ends the stream with OK (unless it already failed it).
  call.on('end', () => {
    if (ended) return;
    close();
    call.end();
  });
  call.on('cancelled', close);
  call.on('close', close);

  function openStream(request: StreamingPullRequest): { queue: SubscriptionQueue; receiver: Receiver } {
    if (!isSubscriptionName(request.subscription)) throw invalidArgument(`Invalid [subscriptions] name: (name=${request.subscription})`);
    const queue = context.state.subscription(request.subscription);
    if (queue === undefined) throw notFound(request.subscription);
    checkAckDeadline(request.streamAckDeadlineSeconds, MIN_ACK_DEADLINE);
    streamAckDeadline = request.streamAckDeadlineSeconds;
    const receiver: Receiver = {
      limits: { maxMessages: request.maxOutstandingMessages, maxBytes: request.maxOutstandingBytes },
      ackDeadlineSeconds: () => streamAckDeadline,
      deliver: (receivedMessages) => {
        if (ended) return; // the leases expire and the messages are redelivered elsewhere
        call.write({
          receivedMessages,
          subscriptionProperties: { exactlyOnceDeliveryEnabled: false, messageOrderingEnabled: queue.settings.messageOrdering },
        });
      },
    };
    queue.addReceiver(receiver);
    return { queue, receiver };
  }

  function applyStreamRequest(queue: SubscriptionQueue, request: StreamingPullRequest): void {
    if (request.streamAckDeadlineSeconds !== 0) {
      checkAckDeadline(request.streamAckDeadlineSeconds, MIN_ACK_DEADLINE);
      streamAckDeadline = request.streamAckDeadlineSeconds;
    }
    if (request.modifyDeadlineAckIds.length !== request.modifyDeadlineSeconds.length) {
      throw invalidArgument('modify_deadline_seconds and modify_deadline_ack_ids must have the same length.');
    }
    request.modifyDeadlineAckIds.forEach((ackId, index) => {
      const seconds = request.modifyDeadlineSeconds[index] ?? 0;
      checkAckDeadline(seconds, 0);
      queue.modifyAckDeadline([ackId], seconds);
    });
    if (request.ackIds.length > 0) queue.acknowledge(request.ackIds);
  }
}

function checkAckDeadline(seconds: number, min: number): void {
  if (seconds < min || seconds > MAX_ACK_DEADLINE) {
    throw invalidArgument(`Invalid ack deadline ${seconds}: it must be between ${min} and ${MAX_ACK_DEADLINE} seconds.`);
  }
}

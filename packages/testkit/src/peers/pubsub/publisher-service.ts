import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import { isTopicName } from './names.js';
import { unary, type RpcContext } from './rpc.js';
import { alreadyExists, invalidArgument, notFound, requestTooLarge, RpcFailure } from './status.js';
import type { Empty, PublishRequest, PublishResponse, TopicRequest, WireTopic } from './wire.js';

/** google.pubsub.v1.Publisher: topics and Publish. */
export function publisherService(context: RpcContext): UntypedServiceImplementation {
  const { state } = context;

  return {
    CreateTopic: unary<WireTopic, WireTopic>('CreateTopic', context, (topic) => {
      checkTopicName(topic.name);
      if (!state.createTopic(topic.name)) throw alreadyExists('Resource already exists in the project (resource=topic).');
      return topic;
    }),

    GetTopic: unary<TopicRequest, WireTopic>('GetTopic', context, ({ topic }) => {
      checkTopicName(topic);
      if (!state.hasTopic(topic)) throw notFound(topic);
      return { name: topic };
    }),

    DeleteTopic: unary<TopicRequest, Empty>('DeleteTopic', context, ({ topic }) => {
      checkTopicName(topic);
      if (!state.deleteTopic(topic)) throw notFound(topic);
      return {};
    }),

    Publish: unary<PublishRequest, PublishResponse>('Publish', context, (request) => {
      checkTopicName(request.topic);
      // Limits from the Pub/Sub quotas page: 10 MB (10,000,000 bytes over gRPC) and 1,000 messages per request.
      const size = context.wireSize(request) ?? 0;
      if (size > context.maxRequestBytes) throw new RpcFailure(requestTooLarge(size, context.maxRequestBytes));
      const count = request.messages.length;
      if (count === 0) throw invalidArgument('The request must contain at least one message.');
      if (count > context.maxMessagesPerPublish) {
        throw invalidArgument(
          `The value for message_count is too large. You passed ${count} in the request, but the maximum value is ${context.maxMessagesPerPublish}.`,
        );
      }
      if (!state.hasTopic(request.topic)) throw notFound(request.topic);
      if (request.messages.some((message) => message.data.length === 0 && Object.keys(message.attributes).length === 0)) {
        throw invalidArgument('Some messages are empty: a message needs data or at least one attribute.');
      }
      return { messageIds: state.publish(request.topic, request.messages) };
    }),
  };
}

function checkTopicName(name: string): void {
  if (!isTopicName(name)) throw invalidArgument(`Invalid [topics] name: (name=${name})`);
}

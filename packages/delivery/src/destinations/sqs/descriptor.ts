import { HERALD_VARIABLES } from '@herald/model';
import { answerAwsAuthentication, checkAwsAuthentication } from '../aws/authentication.js';
import { defineDestination, EVERY_FORMAT } from '../descriptor.js';
import { createSqsAdapter } from './adapter.js';
import { SQS_LIMITS } from './encode.js';

/** §2.4 SQS: a standard queue, with the destination's keys or Herald's own AWS identity (IAM). */
export const SQS_DESTINATION = defineDestination({
  type: 'SQS',
  aliases: [],
  normalize: (fields) => {
    const queueUrl = fields.url('queueUrl');
    // §2.4: FIFO queues are unsupported (AWS names them `*.fifo`; the attribute is checked on verify).
    fields.check(!(queueUrl?.pathname.endsWith('.fifo') ?? false), 'destination.queueUrl: FIFO queues are not supported.');
    const authentication = checkAwsAuthentication(fields);
    return { type: 'SQS', queueUrl: queueUrl?.toString() ?? '', region: fields.string('region'), ...authentication };
  },
  // Absent in IAM mode: Herald's own identity, no keys stored with the destination.
  secretFields: [{ field: 'accessSecret' }],
  formats: EVERY_FORMAT,
  limits: SQS_LIMITS,
  // Without it, a queue URL that is not an AWS host is its own endpoint (`sqsEndpoint`).
  endpointOverride: { option: 'sqs', variable: HERALD_VARIABLES.sqsEndpoint },
  answer: answerAwsAuthentication,
  createAdapter: createSqsAdapter,
});

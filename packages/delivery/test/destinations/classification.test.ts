import { describe, expect, it } from 'vitest';
import { classifyAwsError } from '../../src/destinations/aws/errors.js';
import { classifyEventGridError } from '../../src/destinations/event-grid/classify.js';
import { classifyPubSubError } from '../../src/destinations/pubsub/classify.js';
import { classifyServiceBusError } from '../../src/destinations/service-bus/classify.js';
import { SQS_ERROR_CODES } from '../../src/destinations/sqs/classify.js';

/**
 * Error shapes the peers cannot produce over loopback without leaving it (DNS) or that the SDKs
 * build around a socket error; built here as the SDKs build them.
 */
const systemError = (code: string, syscall = 'connect'): NodeJS.ErrnoException =>
  Object.assign(new Error(`${syscall} ${code} host`), { code, syscall, errno: -1 });

describe('classification of transport errors', () => {
  it('DNS ENOTFOUND is configuration, in every SDK wrapping', () => {
    const dns = systemError('ENOTFOUND', 'getaddrinfo');
    expect(classifyAwsError(dns, SQS_ERROR_CODES)).toMatchObject({ class: 'configuration', code: 'ENOTFOUND' });
    // core-rest-pipeline: RestError with the socket error's code.
    expect(classifyEventGridError(Object.assign(new Error('getaddrinfo ENOTFOUND'), { name: 'RestError', code: 'ENOTFOUND' }))).toMatchObject({
      class: 'configuration',
    });
    // core-amqp copies code/errno/syscall onto a MessagingError; after retries, an AggregateError.
    const messaging = Object.assign(new Error('getaddrinfo ENOTFOUND'), { name: 'MessagingError', code: 'ENOTFOUND', syscall: 'getaddrinfo' });
    expect(classifyServiceBusError(new AggregateError([new Error('first'), messaging]))).toMatchObject({ class: 'configuration' });
    // grpc-js: UNAVAILABLE with the resolver's text only.
    expect(
      classifyPubSubError(Object.assign(new Error('14 UNAVAILABLE: Name resolution failed for target dns:nowhere.invalid:443'), { code: 14 })),
    ).toMatchObject({
      class: 'configuration',
      code: 'ENOTFOUND',
    });
  });

  it('refused, reset and timed-out connections are temporary; the cause is kept', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']) {
      const error = systemError(code);
      const failure = classifyAwsError(Object.assign(new Error('wrapped'), { cause: error }), SQS_ERROR_CODES);
      expect(failure).toMatchObject({ class: 'temporary', code });
      expect(failure.cause).toBeDefined();
    }
  });

  it('the last error of an AggregateError decides', () => {
    const busy = Object.assign(new Error('busy'), { name: 'ServiceBusError', code: 'ServiceBusy' });
    const missing = Object.assign(new Error('missing'), { name: 'ServiceBusError', code: 'MessagingEntityNotFound' });
    expect(classifyServiceBusError(new AggregateError([busy, missing]))).toMatchObject({ class: 'configuration', code: 'MessagingEntityNotFound' });
    expect(classifyServiceBusError(new AggregateError([missing, busy]))).toMatchObject({ class: 'temporary', code: 'ServiceBusy' });
  });

  it('gRPC codes map per the Pub/Sub table', () => {
    const grpc = (code: number) => classifyPubSubError(Object.assign(new Error(`code ${code}`), { code }));
    expect(grpc(5).class).toBe('configuration');
    expect(grpc(7).class).toBe('configuration');
    expect(grpc(16).class).toBe('configuration');
    expect(grpc(14).class).toBe('temporary');
    expect(grpc(4).class).toBe('temporary');
    expect(grpc(8).class).toBe('temporary');
    expect(grpc(13).class).toBe('temporary');
    expect(grpc(3).class).toBe('payload');
  });

  it('unknown errors are temporary and keep their cause', () => {
    const bug = new TypeError('something odd');
    expect(classifyAwsError(bug, SQS_ERROR_CODES)).toMatchObject({ class: 'temporary', cause: bug });
  });
});

import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { PeerFaultKind } from '../faults.js';

/**
 * An error in the AWS JSON 1.1 protocol: the SDK takes the error name from `__type` and builds the
 * modeled exception class when it knows one (`ThrottlingException`, `InternalException`, …).
 */
export interface AwsJsonError {
  readonly status: number;
  readonly type: string;
  readonly message: string;
}

const CONTENT_TYPE = 'application/x-amz-json-1.1';

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': CONTENT_TYPE,
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
  });
  response.end(text);
}

export function sendError(response: ServerResponse, error: AwsJsonError): void {
  sendJson(response, error.status, { __type: error.type, message: error.message });
}

export const validationError = (message: string): AwsJsonError => ({ status: 400, type: 'ValidationException', message });

/** The common error for an access key the service does not know (JSON-protocol services). */
export const unrecognizedClient = (): AwsJsonError => ({
  status: 400,
  type: 'UnrecognizedClientException',
  message: 'The security token included in the request is invalid.',
});

export const missingAuthentication = (): AwsJsonError => ({
  status: 400,
  type: 'MissingAuthenticationTokenException',
  message: 'Missing Authentication Token',
});

export const unknownOperation = (target: string): AwsJsonError => ({
  status: 400,
  type: 'UnknownOperationException',
  message: `Operation ${target} is not supported by this peer.`,
});

/** Faults that are answered with an error for the whole request. */
export type RequestFaultKind = Exclude<PeerFaultKind, 'hang' | 'drop-connection' | 'payload-too-large'>;

export function faultError(kind: RequestFaultKind): AwsJsonError {
  switch (kind) {
    case 'unknown-entity':
      return { status: 400, type: 'ResourceNotFoundException', message: 'Event bus aws.partner/herald does not exist.' };
    case 'bad-credentials':
      return { status: 400, type: 'AccessDeniedException', message: 'User is not authorized to perform: events:PutPartnerEvents.' };
    case 'throttled':
      return { status: 400, type: 'ThrottlingException', message: 'Rate exceeded' };
    case 'server-error':
      return { status: 500, type: 'InternalException', message: 'An internal error occurred.' };
  }
}

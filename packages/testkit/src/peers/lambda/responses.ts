import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/**
 * Lambda speaks AWS restJson1: errors carry their name in the `x-amzn-ErrorType` header (the SDK
 * reads it from there first) and a JSON body with `Type` and `message`.
 */
export interface LambdaError {
  readonly status: number;
  readonly type: string;
  readonly message: string;
}

export function sendError(response: ServerResponse, error: LambdaError): void {
  const text = JSON.stringify({ Type: error.status < 500 ? 'User' : 'Service', message: error.message });
  response.writeHead(error.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-amzn-errortype': error.type,
    'x-amzn-requestid': randomUUID(),
  });
  response.end(text);
}

/** A RequestResponse invocation's answer: the function's result, or its error with `X-Amz-Function-Error`. */
export function sendResult(response: ServerResponse, payload: string, functionError?: 'Unhandled' | 'Handled'): void {
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    'x-amz-executed-version': '$LATEST',
    'x-amzn-requestid': randomUUID(),
    ...(functionError === undefined ? {} : { 'x-amz-function-error': functionError }),
  });
  response.end(payload);
}

export const functionNotFound = (name: string): LambdaError => ({ status: 404, type: 'ResourceNotFoundException', message: `Function not found: ${name}` });

export const unrecognizedClient = (): LambdaError => ({
  status: 403,
  type: 'UnrecognizedClientException',
  message: 'The security token included in the request is invalid.',
});

export const missingAuthentication = (): LambdaError => ({ status: 403, type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' });

export const tooManyRequests = (): LambdaError => ({ status: 429, type: 'TooManyRequestsException', message: 'Rate exceeded' });

export const serviceError = (): LambdaError => ({ status: 500, type: 'ServiceException', message: 'An internal error occurred.' });

export const requestTooLarge = (): LambdaError => ({
  status: 413,
  type: 'RequestTooLargeException',
  message: 'Request must be smaller than 6291456 bytes for the InvokeFunction operation',
});

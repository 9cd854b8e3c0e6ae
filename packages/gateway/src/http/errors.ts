import { ApiError, type ErrorResponse } from '@herald/model';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export function errorBody(error: ApiError): ErrorResponse {
  const body: ErrorResponse = { statusCode: error.statusCode, message: error.message, errors: error.errors };
  const oauth = (error as ApiError & { oauth?: { error: string; error_description: string } }).oauth;
  if (oauth !== undefined) {
    body.error = oauth.error;
    body.error_description = oauth.error_description;
  }
  return body;
}

/** Fastify's own errors that are the client's fault, mapped to the spec's error shape. */
function fromFastifyError(error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, { code: 'InvalidJsonInput', message: 'Request body does not contain valid JSON.' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, { code: 'RequestEntityTooLarge', message: 'The request body exceeds the size limit.' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(415, {
        code: 'InvalidInput',
        message: `Unsupported content type; POST requests must send Content-Type: application/json.`,
      });
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new ApiError(400, { code: 'InvalidInput', message: 'Invalid Content-Type header.' });
    default:
      break;
  }
  if (error.validation !== undefined) {
    return new ApiError(400, { code: 'InvalidInput', message: error.message });
  }
  const status = error.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError(status, { code: status === 404 ? 'ResourceNotFound' : 'InvalidInput', message: error.message });
  }
  return undefined;
}

/**
 * The one error boundary: expected failures answer in the spec's shape and log at info; anything
 * else is a bug, answers an opaque 500 and logs the cause at error.
 */
export function installErrorBoundary(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = error instanceof ApiError ? error : fromFastifyError(error);
    if (apiError !== undefined) {
      request.log.info({ code: apiError.code, statusCode: apiError.statusCode }, apiError.message);
      for (const [name, value] of Object.entries(apiErrorHeaders(apiError))) reply.header(name, value);
      return reply.status(apiError.statusCode).send(errorBody(apiError));
    }
    request.log.error({ err: error }, 'unhandled error');
    const internal = new ApiError(500, { code: 'General', message: 'Internal Server Error.' });
    return reply.status(500).send(errorBody(internal));
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError(404, {
      code: 'ResourceNotFound',
      message: `No endpoint for ${request.method} ${request.url.split('?')[0] ?? ''}.`,
    });
    return reply.status(404).send(errorBody(error));
  });
}

/** Headers an error asks for (e.g. `Retry-After` on 429, `WWW-Authenticate` on 401). */
function apiErrorHeaders(error: ApiError): Record<string, string> {
  return (error as ApiError & { headers?: Record<string, string> }).headers ?? {};
}

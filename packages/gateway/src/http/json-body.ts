import { ApiError } from '@herald/model';
import type { FastifyInstance } from 'fastify';

const invalidJson = () =>
  new ApiError(400, { code: 'InvalidJsonInput', message: 'Request body does not contain valid JSON.' });

/**
 * JSON bodies: a parse failure is a 400 `InvalidJsonInput`; `__proto__` keys are dropped by
 * parsing into plain data with a reviver (prototype poisoning). An empty body parses as undefined
 * so that routes decide whether they need one.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  // Only JSON (and the OAuth form bodies, registered by that module) are accepted: any other content
  // type, text/plain included, is a 415 in the error shape.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value)));
    } catch {
      done(invalidJson(), undefined);
    }
  });
}

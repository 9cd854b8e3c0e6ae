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
  app.removeContentTypeParser('application/json');
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

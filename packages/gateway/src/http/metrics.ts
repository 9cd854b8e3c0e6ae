import type { FastifyInstance } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

/**
 * Request-duration histogram on the injected registry, and `GET /metrics` in the Prometheus format
 * unless `servedElsewhere` (HERALD_METRICS_PORT: server/metrics-listener.ts serves it instead).
 */
export function installHttpMetrics(app: FastifyInstance, registry: Registry, servedElsewhere = false): void {
  const duration = new Histogram({
    name: 'herald_http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // A callback hook: no promise and microtask per request (issue 30).
  app.addHook('onResponse', (request, reply, done) => {
    // The route template, never the raw URL: ids in URLs would explode label cardinality.
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
  if (servedElsewhere) {
    // Absent from the API port: the not-found answer of an unknown route. Without this route the
    // path would reach `GET /{projectKey}` and answer 401 to a scraper without a token.
    app.get('/metrics', { config: { auth: 'public' } }, async (_request, reply) => reply.callNotFound());
    return;
  }
  app.get('/metrics', { config: { auth: 'public' } }, async (_request, reply) => {
    reply.header('Content-Type', registry.contentType);
    return registry.metrics();
  });
}

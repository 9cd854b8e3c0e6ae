import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

type LogLine = Record<string, unknown>;

/** Collects the gateway's log lines, parsed. */
class LogCapture extends Writable {
  readonly lines: LogLine[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line !== '') this.lines.push(JSON.parse(line) as LogLine);
    done();
  }
}

/** ARCHITECTURE "Logs": the correlation id is on every request line, under `correlationId`. */
describe('request logs', () => {
  const logs = new LogCapture();
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  let gateway: TestGateway;

  beforeAll(async () => {
    process.on('warning', onWarning);
    gateway = await startTestGateway({ projects: ['logs'], logger: pino({ level: 'info' }, logs) });
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await gateway?.close();
  });

  it('carry the correlation id as correlationId on Fastify’s lines and on Herald’s own', async () => {
    const ok = await gateway.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-correlation-id': 'log-trace_0001' } });
    expect(ok.statusCode).toBe(200);
    const refused = await gateway.app.inject({ method: 'GET', url: '/logs/stores', headers: { 'x-correlation-id': 'log-trace_0002' } });
    expect(refused.statusCode).toBe(401);

    const messagesOf = (id: string) => logs.lines.filter((line) => line.correlationId === id).map((line) => line.msg);
    expect(messagesOf('log-trace_0001')).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    // The error boundary's info line for the 401 is Herald's own request.log call.
    expect(messagesOf('log-trace_0002').length).toBeGreaterThanOrEqual(3);
    const requestLines = logs.lines.filter((line) => 'req' in line || 'res' in line);
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    for (const line of requestLines) {
      expect(line.correlationId, JSON.stringify(line)).toEqual(expect.any(String));
      expect(line).not.toHaveProperty('reqId');
    }
  });

  it('start without Fastify deprecation warnings', () => {
    const deprecations = warnings.filter((warning) => String((warning as { code?: unknown }).code).startsWith('FSTDEP'));
    expect(deprecations.map((warning) => warning.message)).toEqual([]);
  });
});

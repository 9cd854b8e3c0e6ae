import { hostname } from 'node:os';

/**
 * The logging port: the subset of pino's API the consumer uses, so a pino logger can be passed
 * as is (`logger.child({ component: 'herald-consumer' })`).
 */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

const ignore = (): void => undefined;

export const silentLogger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** pino's numeric levels, so log pipelines set up for pino read these lines the same way. */
const LEVEL_NUMBERS = { debug: 20, info: 30, warn: 40, error: 50, silent: Number.POSITIVE_INFINITY } as const;

export interface JsonLoggerOptions {
  /** Lines below this level are not written. Default `info` (pino's default). */
  readonly level?: LogLevel;
  /** Fields on every line. Default `{ component: 'herald-consumer' }`. */
  readonly base?: Readonly<Record<string, unknown>>;
  /** Where a line (JSON and a newline) goes. Default: standard error. */
  readonly write?: (line: string) => void;
}

/** An Error as pino's standard serializer writes it (`type`, `message`, `stack`, and its own fields such as `code`). */
function serializeError(error: Error): Record<string, unknown> {
  return { ...error, type: error.name, message: error.message, stack: error.stack };
}

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return serializeError(value);
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * A small logger writing pino-compatible JSON lines (`level`, `time`, `pid`, `hostname`, `msg`,
 * fields; errors under `err` with `type`, `message`, `stack`). The consumer's default, so that
 * poison messages, gaps and Redis outages are seen without any setup; pass your own pino logger
 * (`logger` option) to replace it, or `silentLogger` to turn it off.
 */
export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const threshold = LEVEL_NUMBERS[options.level ?? 'info'];
  const base = { pid: process.pid, hostname: hostname(), ...(options.base ?? { component: 'herald-consumer' }) };
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const at = (level: Exclude<LogLevel, 'silent'>) => {
    const number = LEVEL_NUMBERS[level];
    if (number < threshold) return ignore;
    return (fields: object, message?: string): void => {
      let line: string;
      try {
        line = JSON.stringify({ level: number, time: Date.now(), ...base, ...fields, msg: message }, replacer);
      } catch {
        // A field that cannot be serialised (a cycle) must not turn a log line into a crash.
        line = JSON.stringify({ level: number, time: Date.now(), ...base, msg: message, logError: 'fields could not be serialised' });
      }
      write(`${line}\n`);
    };
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

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

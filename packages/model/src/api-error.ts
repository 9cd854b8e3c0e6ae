import type { ErrorObject } from './errors.js';

/**
 * An expected failure that maps to an HTTP answer in the spec's error shape. Thrown by services and
 * the store; the gateway's one error boundary turns it into `{statusCode, message, errors}`.
 * Anything that is not an ApiError is a bug and answers an opaque 500.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly errors: ErrorObject[];

  constructor(statusCode: number, error: ErrorObject, more: ErrorObject[] = []) {
    super(error.message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.errors = [error, ...more];
  }

  get code(): string {
    return this.errors[0]?.code ?? 'General';
  }
}

export const invalidInput = (message: string, extra: Record<string, unknown> = {}): ApiError => new ApiError(400, { code: 'InvalidInput', message, ...extra });

export const invalidOperation = (message: string): ApiError => new ApiError(400, { code: 'InvalidOperation', message });

export const invalidField = (field: string, message: string, invalidValue?: unknown): ApiError =>
  new ApiError(400, { code: 'InvalidField', message, field, invalidValue });

export const requiredField = (field: string): ApiError =>
  new ApiError(400, { code: 'RequiredField', message: `A value is required for field ${field}.`, field });

export const duplicateField = (field: string, duplicateValue: unknown): ApiError =>
  new ApiError(400, {
    code: 'DuplicateField',
    message: `A duplicate value ${JSON.stringify(duplicateValue)} exists for field '${field}'.`,
    field,
    duplicateValue,
  });

export const resourceNotFound = (message = 'The Resource was not found.'): ApiError => new ApiError(404, { code: 'ResourceNotFound', message });

export const concurrentModification = (currentVersion: number, sentVersion: number): ApiError =>
  new ApiError(409, {
    code: 'ConcurrentModification',
    message: `Object has a different version than expected. Expected: ${sentVersion} - Actual: ${currentVersion}.`,
    currentVersion,
  });

/** Injected time source: retry windows and timestamps never read the wall clock directly. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

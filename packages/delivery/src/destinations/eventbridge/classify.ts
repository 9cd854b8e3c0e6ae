import { AWS_COMMON_CODES, mergeTables } from '../aws/errors.js';
import type { ErrorCodeTable } from '../failure.js';

/** EventBridge error codes (PutPartnerEvents errors and per-entry `ErrorCode`s). */
export const EVENTBRIDGE_ERROR_CODES: ErrorCodeTable = mergeTables(AWS_COMMON_CODES, {
  configuration: [
    'ResourceNotFoundException',
    'NotAuthorizedForSourceException',
    'NotAuthorizedForDetailTypeException',
    'OperationDisabledException',
    'LimitExceededException',
    // The receiving account id of the destination is not valid: nothing the event can change.
    'InvalidAccountIdException',
  ],
  temporary: ['InternalException', 'ConcurrentModificationException'],
  payload: ['ValidationError', 'ValidationException', 'MalformedDetail', 'InvalidArgument'],
});

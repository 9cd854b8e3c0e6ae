import { AWS_COMMON_CODES, mergeTables } from '../aws/errors.js';
import type { ErrorCodeTable } from '../failure.js';

/**
 * SNS error codes (SNS API reference, Publish/PublishBatch errors). The SDK names query-protocol
 * errors by their exception class (`NotFoundException`); the wire codes are listed as well.
 */
export const SNS_ERROR_CODES: ErrorCodeTable = mergeTables(AWS_COMMON_CODES, {
  configuration: [
    'NotFound',
    'NotFoundException',
    'AuthorizationErrorException',
    'EndpointDisabled',
    'EndpointDisabledException',
    'InvalidSecurity',
    'InvalidSecurityException',
    'KMSAccessDenied',
    'KMSAccessDeniedException',
    'KMSDisabled',
    'KMSDisabledException',
    'KMSInvalidState',
    'KMSInvalidStateException',
    'KMSNotFound',
    'KMSNotFoundException',
    'KMSOptInRequired',
    'PlatformApplicationDisabled',
    'PlatformApplicationDisabledException',
  ],
  temporary: ['ThrottledException', 'InternalErrorException', 'KMSThrottling', 'KMSThrottlingException'],
  payload: [
    'InvalidParameter',
    'InvalidParameterException',
    'InvalidParameterValue',
    'InvalidParameterValueException',
    'BatchRequestTooLong',
    'BatchRequestTooLongException',
    'ValidationException',
  ],
});

import { AWS_COMMON_CODES, mergeTables } from '../aws/errors.js';
import type { ErrorCodeTable } from '../failure.js';

/** SQS error codes (SQS API reference, "Common errors" and SendMessageBatch errors). */
export const SQS_ERROR_CODES: ErrorCodeTable = mergeTables(AWS_COMMON_CODES, {
  configuration: [
    'QueueDoesNotExist',
    'AWS.SimpleQueueService.NonExistentQueue',
    'InvalidAddress',
    'InvalidSecurity',
    'UnsupportedOperation',
    'AWS.SimpleQueueService.UnsupportedOperation',
    // A FIFO queue asks for MessageGroupId: the destination is not a standard queue (§2.4).
    'MissingParameter',
    'KmsAccessDenied',
    'KmsDisabled',
    'KmsInvalidKeyUsage',
    'KmsInvalidState',
    'KmsNotFound',
    'KmsOptInRequired',
    'KMS.AccessDeniedException',
    'KMS.DisabledException',
    'KMS.NotFoundException',
  ],
  temporary: ['KmsThrottled', 'KMS.ThrottlingException', 'OverLimit', 'AWS.SimpleQueueService.OverLimit'],
  payload: ['InvalidMessageContents', 'BatchRequestTooLong', 'AWS.SimpleQueueService.BatchRequestTooLong', 'InvalidParameterValue', 'MessageTooLong'],
});

import type { AnyDeliveryPayload } from '../delivery.js';
import { invalid, type Invalid } from './parse-error.js';

/*
 * A hand-written validator for the Platform payload of §6.2: it is on the hot path (one call per
 * delivery, ≥ 200,000/s), so it checks exactly the fields the consumer and a handler rely on,
 * allocates nothing when the payload is valid, and reports the first problem with its path.
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** Versions and sequence numbers start at 1 (§2.1, §6.1). */
function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

function missingOrWrong(record: Record<string, unknown>, field: string, expected: string, path: string): Invalid {
  const where = `${path}.${field}`;
  return record[field] === undefined
    ? invalid('invalid-payload', `${where} is missing (${expected})`, where)
    : invalid('invalid-payload', `${where} must be ${expected}`, where);
}

function checkString(record: Record<string, unknown>, field: string, path: string): Invalid | undefined {
  return isNonEmptyString(record[field]) ? undefined : missingOrWrong(record, field, 'a non-empty string', path);
}

function checkPositiveInteger(record: Record<string, unknown>, field: string, path: string): Invalid | undefined {
  return isPositiveInteger(record[field]) ? undefined : missingOrWrong(record, field, 'an integer >= 1', path);
}

function checkCommon(payload: Record<string, unknown>, path: string): Invalid | undefined {
  const projectKeyProblem = checkString(payload, 'projectKey', path);
  if (projectKeyProblem) return projectKeyProblem;
  const resource = payload.resource;
  if (!isObject(resource)) return missingOrWrong(payload, 'resource', 'a Reference object', path);
  const resourcePath = `${path}.resource`;
  const typeIdProblem = checkString(resource, 'typeId', resourcePath);
  if (typeIdProblem) return typeIdProblem;
  const idProblem = checkString(resource, 'id', resourcePath);
  if (idProblem) return idProblem;
  const identifiers = payload.resourceUserProvidedIdentifiers;
  if (identifiers !== undefined && !isObject(identifiers)) {
    return missingOrWrong(payload, 'resourceUserProvidedIdentifiers', 'an object', path);
  }
  return undefined;
}

function checkMessage(payload: Record<string, unknown>, path: string): Invalid | undefined {
  return (
    checkString(payload, 'id', path) ??
    checkPositiveInteger(payload, 'version', path) ??
    checkPositiveInteger(payload, 'sequenceNumber', path) ??
    checkPositiveInteger(payload, 'resourceVersion', path) ??
    checkString(payload, 'createdAt', path) ??
    checkString(payload, 'lastModifiedAt', path) ??
    checkMessagePayloadPresence(payload, path)
  );
}

/** §6.2: either the message-specific fields with `type`, or `payloadNotIncluded`. */
function checkMessagePayloadPresence(payload: Record<string, unknown>, path: string): Invalid | undefined {
  const notIncluded = payload.payloadNotIncluded;
  if (notIncluded !== undefined) {
    if (!isObject(notIncluded)) return missingOrWrong(payload, 'payloadNotIncluded', 'an object', path);
    const notIncludedPath = `${path}.payloadNotIncluded`;
    return checkString(notIncluded, 'reason', notIncludedPath) ?? checkString(notIncluded, 'payloadType', notIncludedPath);
  }
  if (payload.type === undefined) {
    return invalid('invalid-payload', `${path} has neither type nor payloadNotIncluded`, `${path}.type`);
  }
  return checkString(payload, 'type', path);
}

function checkChange(payload: Record<string, unknown>, notificationType: string, path: string): Invalid | undefined {
  const problem = checkPositiveInteger(payload, 'version', path) ?? checkString(payload, 'modifiedAt', path);
  if (problem) return problem;
  if (notificationType === 'ResourceUpdated') {
    const oldVersionProblem = checkPositiveInteger(payload, 'oldVersion', path);
    if (oldVersionProblem) return oldVersionProblem;
    if ((payload.oldVersion as number) >= (payload.version as number)) {
      return invalid('invalid-payload', `${path}.oldVersion must be lower than version`, `${path}.oldVersion`);
    }
  }
  if (notificationType === 'ResourceDeleted' && payload.dataErasure !== undefined && typeof payload.dataErasure !== 'boolean') {
    return missingOrWrong(payload, 'dataErasure', 'a boolean', path);
  }
  return undefined;
}

/** An event subscription's payload (reference: EventDeliveryPayload): id, type, resourceType, data, createdAt. */
function checkEvent(payload: Record<string, unknown>, path: string): Invalid | undefined {
  const problem =
    checkString(payload, 'id', path) ??
    checkString(payload, 'type', path) ??
    checkString(payload, 'resourceType', path) ??
    checkString(payload, 'createdAt', path);
  if (problem) return problem;
  return isObject(payload.data) ? undefined : missingOrWrong(payload, 'data', 'an object', path);
}

/** Validates a Platform payload (§6.2, and the reference's EventDeliveryPayload) in place; returns it typed, or why it is not one. */
export function validatePlatformPayload(value: unknown, path: string): AnyDeliveryPayload | Invalid {
  if (!isObject(value)) return invalid('invalid-payload', `${path} must be a JSON object`, path);
  const notificationType = value.notificationType;
  let problem: Invalid | undefined;
  switch (notificationType) {
    case 'Message':
      problem = checkCommon(value, path) ?? checkMessage(value, path);
      break;
    case 'ResourceCreated':
    case 'ResourceUpdated':
    case 'ResourceDeleted':
      problem = checkCommon(value, path) ?? checkChange(value, notificationType, path);
      break;
    case 'Event':
      problem = checkEvent(value, path);
      break;
    default:
      return notificationType === undefined
        ? invalid('invalid-payload', `${path}.notificationType is missing`, `${path}.notificationType`)
        : invalid(
            'invalid-payload',
            `${path}.notificationType ${JSON.stringify(notificationType)} is not one of Message, ResourceCreated, ResourceUpdated, ResourceDeleted, Event`,
            `${path}.notificationType`,
          );
  }
  return problem ?? (value as unknown as AnyDeliveryPayload);
}

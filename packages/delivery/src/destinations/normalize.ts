import {
  AWS_AUTHENTICATION_MODES,
  DESTINATION_TYPE_ALIASES,
  DESTINATION_TYPES,
  type AwsAuthentication,
  type Destination,
  type DestinationType,
} from '@herald/model';
import { looksSealed } from '../secrets/secret-box.js';
import { parseServiceBusConnectionString } from './service-bus/connection-string.js';
import { regionOfTopicArn } from './sns/topic-arn.js';

export type DestinationValidation = { ok: true; destination: Destination } | { ok: false; errors: string[] };

type Fields = Record<string, unknown>;

/** Collects field errors with the path the API reports (`destination.queueUrl`). */
class FieldChecker {
  readonly errors: string[] = [];
  constructor(private readonly input: Fields) {}

  string(field: string): string {
    const value = this.input[field];
    if (typeof value !== 'string' || value.trim() === '') {
      this.errors.push(`destination.${field}: a non-empty string is required.`);
      return '';
    }
    return value;
  }

  /** A secret: a string that cannot be mistaken for one Herald sealed (never echoed in the error). */
  secret(field: string): string {
    const value = this.string(field);
    if (looksSealed(value)) this.errors.push(`destination.${field}: must not start with "enc:v1:" (the form of secrets Herald sealed).`);
    return value;
  }

  url(field: string): URL | undefined {
    const value = this.string(field);
    if (value === '') return undefined;
    try {
      const url = new URL(value);
      // URLs are answered as they are (only the secret fields are masked): a password in one
      // would be shown in full.
      if (url.username !== '' || url.password !== '') {
        this.errors.push(`destination.${field}: must not contain credentials (user:password@); send them in the destination's secret field.`);
        return undefined;
      }
      if (url.protocol === 'https:' || url.protocol === 'http:') return url;
    } catch {
      // reported below
    }
    this.errors.push(`destination.${field}: '${value}' is not an http(s) URL.`);
    return undefined;
  }

  check(condition: boolean, message: string): void {
    if (!condition) this.errors.push(message);
  }

  /**
   * SQS/SNS authentication (reference type AwsAuthenticationMode): `Credentials`, the default,
   * requires the keys; `IAM` sends with Herald's own AWS identity and takes no keys, since keys
   * given beside it would be stored and never used.
   */
  awsAuthentication(): AwsAuthentication {
    const mode = this.input.authenticationMode ?? 'Credentials';
    if (mode === 'Credentials') return { accessKey: this.string('accessKey'), accessSecret: this.secret('accessSecret'), authenticationMode: 'Credentials' };
    if (mode !== 'IAM') {
      this.errors.push(`destination.authenticationMode: must be one of ${AWS_AUTHENTICATION_MODES.join(', ')} (got ${JSON.stringify(mode)}).`);
      return { authenticationMode: 'IAM' };
    }
    for (const field of ['accessKey', 'accessSecret']) {
      // Never echoed: the value may be a secret.
      const value = this.input[field];
      if (value !== undefined && value !== null) this.errors.push(`destination.${field}: must not be set with authenticationMode IAM.`);
    }
    return { authenticationMode: 'IAM' };
  }
}

type Normalizer<K extends DestinationType> = (fields: FieldChecker) => Extract<Destination, { type: K }>;

/** §2.4 field rules per destination kind; only the known fields are kept. */
const NORMALIZERS: { [K in DestinationType]: Normalizer<K> } = {
  SQS: (f) => {
    const queueUrl = f.url('queueUrl');
    // §2.4: FIFO queues are unsupported (AWS names them `*.fifo`; the attribute is checked on verify).
    f.check(!(queueUrl?.pathname.endsWith('.fifo') ?? false), 'destination.queueUrl: FIFO queues are not supported.');
    const authentication = f.awsAuthentication();
    return { type: 'SQS', queueUrl: queueUrl?.toString() ?? '', region: f.string('region'), ...authentication };
  },
  SNS: (f) => {
    const topicArn = f.string('topicArn');
    if (topicArn !== '') {
      f.check(
        regionOfTopicArn(topicArn) !== undefined,
        `destination.topicArn: '${topicArn}' is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>).`,
      );
    }
    return { type: 'SNS', topicArn, ...f.awsAuthentication() };
  },
  // `source` is not read: it is the partner event source Herald names after the subscription
  // (answered, never taken from a draft; the official SDK's type requires it, so clients send one).
  EventBridge: (f) => {
    const accountId = f.string('accountId');
    if (accountId !== '') f.check(/^\d{12}$/.test(accountId), 'destination.accountId: must be a 12-digit account id.');
    return { type: 'EventBridge', region: f.string('region'), accountId };
  },
  ProviderBServiceBus: (f) => {
    const connectionString = f.secret('connectionString');
    if (connectionString !== '') {
      const parts = parseServiceBusConnectionString(connectionString);
      f.check(parts.endpoint !== undefined, 'destination.connectionString: Endpoint is missing.');
      f.check(
        parts.entityPath !== undefined && parts.entityPath !== '',
        'destination.connectionString: EntityPath is missing; it must name the queue or topic.',
      );
      f.check(
        parts.sharedAccessKeyName !== undefined && parts.sharedAccessKey !== undefined,
        'destination.connectionString: SharedAccessKeyName and SharedAccessKey are required.',
      );
    }
    return { type: 'ProviderBServiceBus', connectionString };
  },
  EventGrid: (f) => {
    const uri = f.url('uri');
    return { type: 'EventGrid', uri: uri?.toString() ?? '', accessKey: f.secret('accessKey') };
  },
  ProviderCPubSub: (f) => ({ type: 'ProviderCPubSub', projectId: f.string('projectId'), topic: f.string('topic') }),
};

/**
 * Validates a destination from an API draft: maps the SDK aliases (`AzureServiceBus`,
 * `GoogleCloudPubSub`) to the spec's names and checks each kind's fields (§2.4). The errors are
 * ready for a 400 response.
 */
export function normalizeDestination(input: unknown): DestinationValidation {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, errors: ['destination: an object with a type is required.'] };
  }
  const fields = input as Fields;
  const rawType = fields.type;
  const type = typeof rawType === 'string' ? (DESTINATION_TYPE_ALIASES.get(rawType) ?? asDestinationType(rawType)) : undefined;
  if (type === undefined) {
    return {
      ok: false,
      errors: [`destination.type: must be one of ${DESTINATION_TYPES.join(', ')} (got ${JSON.stringify(rawType ?? null)}).`],
    };
  }
  const checker = new FieldChecker(fields);
  const destination = (NORMALIZERS[type] as Normalizer<DestinationType>)(checker);
  return checker.errors.length === 0 ? { ok: true, destination } : { ok: false, errors: checker.errors };
}

function asDestinationType(value: string): DestinationType | undefined {
  return (DESTINATION_TYPES as readonly string[]).includes(value) ? (value as DestinationType) : undefined;
}

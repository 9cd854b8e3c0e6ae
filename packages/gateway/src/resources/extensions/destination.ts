import { looksSealed, type SecretBox } from '@herald/delivery';
import { invalidInput, requiredField } from '@herald/model';
import { maskAuthorizationHeader } from '../../oauth/external/settings.js';
import type { ExtensionDestination, HttpAuthentication } from './extension.js';

type Fields = Record<string, unknown>;

function object(value: unknown, field: string): Fields {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidInput(`'${field}' must be an object.`, { field });
  return value as Fields;
}

/** An http(s) URL without credentials (they belong in `authentication`, which is sealed and masked). */
function url(value: unknown, field: string): string {
  if (value === undefined || value === null) throw requiredField(field);
  let parsed: URL | undefined;
  try {
    parsed = typeof value === 'string' && value.length <= 2048 ? new URL(value) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw invalidInput(`'${field}' must be an http(s) URL.`, { field, invalidValue: value });
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw invalidInput(`'${field}' must not contain credentials: use the destination's authentication.`, { field });
  }
  return value as string;
}

/**
 * A secret: printable ASCII on one line (it becomes a header or a signing key), never echoed in
 * errors, and not of the form of a value Herald sealed (it would be stored as if sealed).
 */
function secret(value: unknown, field: string): string {
  if (value === undefined || value === null) throw requiredField(field);
  if (typeof value !== 'string' || !/^[\x20-\x7e]{1,4096}$/.test(value) || value.trim() === '') {
    throw invalidInput(`'${field}' must be printable ASCII, 1 to 4096 characters.`, { field });
  }
  if (looksSealed(value)) throw invalidInput(`'${field}' must not start with "enc:v1:" (the form of secrets Herald sealed).`, { field });
  return value;
}

/** AWSLambdaDestination.arn: `arn:aws:lambda:<region>:<accountid>:function:<name>[:<alias or version>]`. */
const LAMBDA_ARN = /^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:[A-Za-z0-9_-]{1,140}(:[A-Za-z0-9_$-]{1,128})?$/;

function authentication(value: unknown, field: string): HttpAuthentication | undefined {
  if (value === undefined || value === null) return undefined;
  const draft = object(value, field);
  switch (draft.type) {
    case 'AuthorizationHeader':
      return { type: 'AuthorizationHeader', headerValue: secret(draft.headerValue, `${field}.headerValue`) };
    case 'AzureFunctions':
      return { type: 'AzureFunctions', key: secret(draft.key, `${field}.key`) };
    default:
      throw invalidInput(`'${field}.type' must be AuthorizationHeader or AzureFunctions.`, { field: `${field}.type`, invalidValue: draft.type });
  }
}

/** Validates an ExtensionDestination draft (plain secrets: `sealDestination` stores them). */
export function parseDestination(value: unknown, field = 'destination'): ExtensionDestination {
  const draft = object(value, field);
  switch (draft.type) {
    case 'HTTP': {
      const auth = authentication(draft.authentication, `${field}.authentication`);
      return { type: 'HTTP', url: url(draft.url, `${field}.url`), ...(auth === undefined ? {} : { authentication: auth }) };
    }
    case 'AWSLambda': {
      if (draft.arn === undefined || draft.arn === null) throw requiredField(`${field}.arn`);
      if (typeof draft.arn !== 'string' || !LAMBDA_ARN.test(draft.arn)) {
        throw invalidInput(`'${field}.arn' must be a Lambda function ARN (arn:aws:lambda:<region>:<accountid>:function:<functionName>).`, {
          field: `${field}.arn`,
          invalidValue: draft.arn,
        });
      }
      return {
        type: 'AWSLambda',
        arn: draft.arn,
        accessKey: secret(draft.accessKey, `${field}.accessKey`),
        accessSecret: secret(draft.accessSecret, `${field}.accessSecret`),
      };
    }
    case 'GoogleCloudFunction':
      return { type: 'GoogleCloudFunction', url: url(draft.url, `${field}.url`) };
    default:
      throw invalidInput(`'${field}.type' must be HTTP, AWSLambda or GoogleCloudFunction.`, { field: `${field}.type`, invalidValue: draft.type });
  }
}

/** The destination with every secret the reference says is "partially hidden" replaced by `transform`. */
function mapSecrets(destination: ExtensionDestination, transform: (value: string) => string): ExtensionDestination {
  switch (destination.type) {
    case 'HTTP': {
      const auth = destination.authentication;
      if (auth === undefined) return destination;
      return {
        ...destination,
        authentication: auth.type === 'AuthorizationHeader' ? { ...auth, headerValue: transform(auth.headerValue) } : { ...auth, key: transform(auth.key) },
      };
    }
    case 'AWSLambda':
      return { ...destination, accessKey: transform(destination.accessKey), accessSecret: transform(destination.accessSecret) };
    case 'GoogleCloudFunction':
      return destination;
  }
}

/** Seals the secrets at rest (HERALD_SECRET_KEY; without a key they are stored as given). */
export function sealDestination(destination: ExtensionDestination, secrets: SecretBox): ExtensionDestination {
  return mapSecrets(destination, (value) => secrets.seal(value));
}

/** Opens the sealed secrets, for the call only: the opened form never leaves memory. */
export function openDestination(destination: ExtensionDestination, secrets: SecretBox): ExtensionDestination {
  return mapSecrets(destination, (value) => secrets.open(value));
}

/**
 * The destination as answers show it: each secret opened and partially hidden (`Bearer abcd****`,
 * `AKIA****`), the same form as the external OAuth header. A value that cannot be opened (its key
 * was rotated away) is hidden as a whole.
 */
export function maskedDestination(destination: ExtensionDestination, secrets: SecretBox): ExtensionDestination {
  return mapSecrets(destination, (value) => {
    try {
      return maskAuthorizationHeader(secrets.open(value));
    } catch {
      return '****';
    }
  });
}

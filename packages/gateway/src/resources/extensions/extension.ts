import type { BaseResource, Reference } from '@herald/model';

export const EXTENSION_TYPE_ID = 'extension';

/** The reference's ExtensionResourceTypeId: the resource types an Extension can be triggered by. */
export const EXTENSION_RESOURCE_TYPE_IDS = [
  'cart',
  'order',
  'payment',
  'payment-method',
  'customer',
  'customer-group',
  'quote-request',
  'staged-quote',
  'quote',
  'business-unit',
  'shopping-list',
] as const;
export type ExtensionResourceTypeId = (typeof EXTENSION_RESOURCE_TYPE_IDS)[number];

/** The reference's ExtensionAction. */
export const EXTENSION_ACTIONS = ['Create', 'Update'] as const;
export type ExtensionAction = (typeof EXTENSION_ACTIONS)[number];

/** Extension.timeoutInMs: `default: 2000`, `maximum: 10000`. */
export const DEFAULT_TIMEOUT_MS = 2_000;
export const MAX_TIMEOUT_MS = 10_000;
/** The platform's limit: "A Project can have a maximum of 25 API Extensions". */
export const MAX_EXTENSIONS_PER_PROJECT = 25;
/** Extension.dependencies `maxItems: 5`; ExtensionChainTooDeep: "exceeds 3 layers". */
export const MAX_DEPENDENCIES = 5;
export const MAX_CHAIN_DEPTH = 3;
/** Extension.expansionPaths `maxItems: 3`. */
export const MAX_EXPANSION_PATHS = 3;
/** The platform applies "a maximum of 100 additional updates" an Extension returns. */
export const MAX_RETURNED_ACTIONS = 100;

/**
 * The reference's HttpDestinationAuthentication. The secret (`headerValue`, `key`) is stored
 * sealed with the secret box of destination secrets (HERALD_SECRET_KEY) and partially hidden in
 * every answer (present.ts).
 */
export type HttpAuthentication = { type: 'AuthorizationHeader'; headerValue: string } | { type: 'AzureFunctions'; key: string };

/** The reference's ExtensionDestination; `accessKey`/`accessSecret` of AWSLambda are sealed too. */
export type ExtensionDestination =
  | { type: 'HTTP'; url: string; authentication?: HttpAuthentication }
  | { type: 'AWSLambda'; arn: string; accessKey: string; accessSecret: string }
  | { type: 'GoogleCloudFunction'; url: string };

export interface ExtensionTrigger {
  resourceTypeId: ExtensionResourceTypeId;
  actions: ExtensionAction[];
  condition?: string;
}

export interface ExtensionAdditionalContext {
  includeOldResource: boolean;
}

/** `/{projectKey}/extensions` (reference: types/extension/Extension.raml). */
export interface Extension extends BaseResource {
  key?: string;
  destination: ExtensionDestination;
  triggers: ExtensionTrigger[];
  timeoutInMs?: number;
  dependencies?: Array<Reference<'extension'>>;
  expansionPaths?: string[];
  additionalContext?: ExtensionAdditionalContext;
}

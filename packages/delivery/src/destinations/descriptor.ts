import type { Destination, DestinationType, Format, Variable } from '@herald/model';
import type { DestinationEnvironment } from './environment.js';
import type { FieldChecker } from './field-checker.js';
import type { DestinationAdapter, DestinationLimits } from './port.js';

export type DestinationOfType<T extends DestinationType> = Extract<Destination, { type: T }>;

/** The string fields of a destination kind (of any kind, for the union), the only ones that can hold a secret. */
type StringField<D> = D extends Destination ? { [K in keyof D]-?: NonNullable<D[K]> extends string ? K : never }[keyof D] & string : never;

/**
 * A field that holds a secret (§2.4: "partially hidden on retrieval"). Sealing, opening and masking
 * all derive from this list; a field absent from a destination (SQS/SNS keys in IAM mode) is skipped.
 */
export interface SecretField<D extends Destination = Destination> {
  readonly field: StringField<D>;
  /** How an opened value is partially hidden; `maskSecret` (first 4 characters) when absent. */
  readonly mask?: (value: string) => string;
}

/**
 * An endpoint override: the variable that points the destination's SDK at a local peer or emulator,
 * and the key it takes in `DestinationEnvironment.endpoints` (and `createDestinationEnvironment`).
 */
export interface EndpointOverride<Option extends string = string> {
  readonly option: Option;
  /** Its entry in the model's configuration table (HERALD_VARIABLES). */
  readonly variable: Variable<string | undefined>;
}

/** What an API answer adds to a stored destination beyond masking it. */
export interface DestinationAnswerContext {
  projectKey: string;
  subscriptionId: string;
  /** Herald's EventBridge partner name (`DestinationEnvironment.eventBridge.partnerName`). */
  eventBridgePartnerName: string;
}

/**
 * Everything Herald knows about one destination kind (§2.4), declared once in its folder; the
 * registry collects one per kind. Validation, masking, sealing, format checks, configuration and the
 * adapter pool all read it.
 */
export interface DestinationDescriptor<T extends DestinationType = DestinationType, Option extends string = string> {
  /** The spec's name of the kind. */
  readonly type: T;
  /** Names the official SDKs send for it, accepted on input (`AzureServiceBus`). */
  readonly aliases: readonly string[];
  /** Checks a draft's fields and keeps only the known ones (§2.4); errors go to `fields`. */
  normalize(fields: FieldChecker): DestinationOfType<T>;
  readonly secretFields: readonly SecretField<DestinationOfType<T>>[];
  /** The formats it accepts (§2.4: Event Grid takes CloudEvents only). */
  readonly formats: readonly Format['type'][];
  /** The native limits its adapter batches and measures against. */
  readonly limits: DestinationLimits;
  readonly endpointOverride?: EndpointOverride<Option>;
  /** What the reference's type requires in an answer that the stored document may not hold. */
  answer?(destination: DestinationOfType<T>, context: DestinationAnswerContext): DestinationOfType<T>;
  createAdapter(destination: DestinationOfType<T>, env: DestinationEnvironment): DestinationAdapter;
}

/** Both formats of §2.4: what a destination accepts unless it says otherwise. */
export const EVERY_FORMAT: readonly Format['type'][] = Object.freeze(['Platform', 'CloudEvents']);

/** Keeps the literal endpoint option of a descriptor, from which the environment's keys derive. */
export function defineDestination<T extends DestinationType, const Option extends string = never>(
  descriptor: DestinationDescriptor<T, Option>,
): DestinationDescriptor<T, Option> {
  return Object.freeze(descriptor);
}

import type { Socket } from 'node:net';
import rhea, { type AmqpError, type Connection, type Delivery, type Receiver, type Sender } from 'rhea';

/**
 * The few rhea internals a server needs that its typings leave out, in one place with narrow types.
 * Checked against rhea 3.0 (lib/link.js, lib/connection.js, lib/message.js).
 */

/** Fields of the attach frame the peer sends back; rhea creates it and sends it after the open event. */
export interface LocalAttach {
  max_message_size?: number;
  snd_settle_mode?: number;
  rcv_settle_mode?: number;
}

export function localAttach(link: Sender | Receiver): LocalAttach {
  return (link as unknown as { local: { attach: LocalAttach } }).local.attach;
}

/** The address of a remote source or target terminus (rhea unwraps it to a plain object). */
export function terminusAddress(terminus: unknown): string | undefined {
  if (typeof terminus !== 'object' || terminus === null || !('address' in terminus)) return undefined;
  const address = (terminus as { address: unknown }).address;
  return typeof address === 'string' ? address : undefined;
}

export function socketOf(connection: Connection): Socket | undefined {
  return (connection as unknown as { socket?: Socket }).socket;
}

/** A delivery state, encoded for a disposition frame. */
export type Outcome = { readonly __outcome: never };

interface OutcomeFactories {
  accepted(): { described(): unknown };
  released(): { described(): unknown };
  rejected(fields: { error?: AmqpError }): { described(): unknown };
  modified(fields: { delivery_failed?: boolean; undeliverable_here?: boolean }): { described(): unknown };
}

const factories = rhea.message as unknown as OutcomeFactories;

export const outcomes = {
  accepted: (): Outcome => factories.accepted().described() as Outcome,
  released: (): Outcome => factories.released().described() as Outcome,
  modified: (undeliverableHere: boolean): Outcome =>
    factories.modified({ delivery_failed: !undeliverableHere, undeliverable_here: undeliverableHere }).described() as Outcome,
  /** Without an error when confirming a receiver's own rejection (an error would fail its settle call). */
  rejected: (error?: AmqpError): Outcome => factories.rejected(error ? { error } : {}).described() as Outcome,
};

/** Settles a delivery the peer sent (the receiver's disposition arrived unsettled: rcv-settle-mode second). */
export function settleOutgoing(delivery: Delivery, outcome: Outcome): void {
  delivery.update(true, outcome);
}

/** The outcome a receiver chose for a delivery the peer sent, as rhea unwrapped it. */
export interface RemoteOutcome {
  readonly undeliverable_here?: boolean;
  readonly message_annotations?: Record<string, unknown>;
  readonly error?: { readonly condition?: string; readonly description?: string; readonly info?: Record<string, unknown> };
}

export function remoteOutcome(delivery: Delivery): RemoteOutcome {
  return (delivery.remote_state ?? {}) as RemoteOutcome;
}

/** Link credit the receiver granted and the peer has not yet used (rhea keeps it up to date per transfer). */
export function creditOf(link: Sender): number {
  return (link as unknown as { credit: number }).credit;
}

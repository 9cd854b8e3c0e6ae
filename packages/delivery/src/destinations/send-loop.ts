import type { DestinationEnvironment } from './environment.js';
import { abortFailure, failure } from './failure.js';
import type { DeliveryFailure, DestinationLimits, EncodedMessage, SendOptions, SendOutcome } from './port.js';

/** What one native request reports for each entry it carried. */
export type EntryResult =
  | { status: 'delivered' }
  | {
      status: 'failed';
      failure: DeliveryFailure;
      /** A temporary per-entry error (the rest of the batch went through): resend it now. */
      resendable: boolean;
    };

export const ENTRY_DELIVERED: EntryResult = Object.freeze({ status: 'delivered' });

/** The part of an adapter that moves one native request. */
export interface RequestSender<TNative> {
  /** Sends one request (within the adapter's limits) and answers one result per entry, in order. */
  sendRequest(messages: readonly EncodedMessage<TNative>[], signal: AbortSignal): Promise<EntryResult[]>;
  /** Classifies an error that failed the whole request (a `payload` one is narrowed down to its entries first). */
  classify(error: unknown): DeliveryFailure;
  /**
   * Splits messages into requests; by default by `limits.maxBatchEntries` and `maxBatchBytes`.
   * Answers groups of indices into `messages`.
   */
  plan?(messages: readonly EncodedMessage<TNative>[]): number[][];
}

/**
 * Runs `send` under one deadline for the whole call, joined with the caller's signal, and clears
 * both when it settles. A timer and a controller, not `AbortSignal.any([signal,
 * AbortSignal.timeout(ms)])`: on Node 20 the timeout signal inside `any` can be garbage-collected
 * before it fires (nodejs/node#57736), and a send to a destination that never answers then never
 * ended while a worker passed its stop signal (the soak's black hole, docs/reliability.md).
 */
export async function withDeadline<T>(options: SendOptions | undefined, env: DestinationEnvironment, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('The destination did not answer in time', 'TimeoutError')),
    options?.timeoutMs ?? env.timeouts.sendMs,
  );
  const caller = options?.signal;
  const follow = (): void => controller.abort(caller?.reason);
  if (caller?.aborted === true) follow();
  else caller?.addEventListener('abort', follow, { once: true });
  try {
    return await send(controller.signal);
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', follow);
  }
}

/**
 * Settles with the promise, or rejects as soon as the signal aborts. Every request goes through
 * this, so a hanging destination is bounded even where an SDK ignores abort signals (Pub/Sub).
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/** Greedy split by entry count and summed size (messages already fit `maxMessageBytes`). */
export function planBatches(sizes: readonly number[], limits: DestinationLimits): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  sizes.forEach((size, index) => {
    if (current.length > 0 && (current.length >= limits.maxBatchEntries || bytes + size > limits.maxBatchBytes)) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(index);
    bytes += size;
  });
  if (current.length > 0) groups.push(current);
  return groups;
}

/** Runs tasks with at most `limit` in flight. */
async function runLimited(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const task = tasks[next++];
      if (task !== undefined) await task();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
}

/**
 * The send loop every adapter shares: plan native requests, send them (a few in flight), record
 * one outcome per input (splitting requests refused as a whole for their payload, to find the
 * entries at fault), then resend only the entries that failed with a temporary per-entry error,
 * at most `env.resend.maxImmediateResends` times. Whatever is still unsent when the deadline hits
 * fails as temporary `Timeout`/`Aborted`.
 */
export async function sendWithResends<TNative>(
  batch: readonly EncodedMessage<TNative>[],
  options: SendOptions | undefined,
  env: DestinationEnvironment,
  limits: DestinationLimits,
  sender: RequestSender<TNative>,
): Promise<SendOutcome[]> {
  if (batch.length === 0) return [];
  return withDeadline(options, env, (signal) => sendUntil(batch, signal, env, limits, sender));
}

/** `sendWithResends` within the deadline `signal`. */
async function sendUntil<TNative>(
  batch: readonly EncodedMessage<TNative>[],
  signal: AbortSignal,
  env: DestinationEnvironment,
  limits: DestinationLimits,
  sender: RequestSender<TNative>,
): Promise<SendOutcome[]> {
  const outcomes: (SendOutcome | undefined)[] = Array.from({ length: batch.length }, () => undefined);
  let pending = batch.map((_, index) => index);

  for (let attempt = 0; attempt <= env.resend.maxImmediateResends && pending.length > 0; attempt++) {
    if (signal.aborted) break;
    const messages = pending.map((index) => batch[index] as EncodedMessage<TNative>);
    const groups =
      sender.plan?.(messages) ??
      planBatches(
        messages.map((m) => m.sizeBytes),
        limits,
      );
    const resend: number[] = [];
    const tasks = groups.map((group) => async () => {
      const originals = group.map((position) => pending[position] as number);
      const groupMessages = group.map((position) => messages[position] as EncodedMessage<TNative>);
      const results = await sendIsolatingPayloadFailures(groupMessages, sender, signal);
      originals.forEach((original, i) => {
        const result = results[i] ?? missingResult();
        if (result.status === 'delivered') {
          outcomes[original] = { status: 'delivered' };
        } else {
          outcomes[original] = { status: 'failed', failure: result.failure };
          if (result.resendable) resend.push(original);
        }
      });
    });
    await runLimited(tasks, env.maxConcurrentRequests);
    pending = resend.sort((a, b) => a - b);
  }

  const notSent = abortFailure(signal, signal.reason) ?? failure('temporary', 'Aborted', 'The send was aborted');
  return outcomes.map((outcome) => outcome ?? { status: 'failed', failure: notSent });
}

/**
 * Sends one request. A whole-request `payload` failure does not say which entry the destination
 * refused (Pub/Sub's INVALID_ARGUMENT, Event Grid's 400, a batch too long), and dropping all of
 * them would lose entries that are fine on their own: such a request of several entries is split
 * in halves, each sent again, until the refused entries stand alone. At most 2n - 1 requests for n
 * entries, all within the send's deadline; other failures fail the whole request at once.
 */
async function sendIsolatingPayloadFailures<TNative>(
  messages: readonly EncodedMessage<TNative>[],
  sender: RequestSender<TNative>,
  signal: AbortSignal,
): Promise<EntryResult[]> {
  try {
    return await raceAbort(sender.sendRequest(messages, signal), signal);
  } catch (error) {
    const requestFailure = abortFailure(signal, error) ?? sender.classify(error);
    if (requestFailure.class !== 'payload' || messages.length < 2) {
      return messages.map(() => ({ status: 'failed', failure: requestFailure, resendable: false }));
    }
    const middle = Math.ceil(messages.length / 2);
    const head = await sendIsolatingPayloadFailures(messages.slice(0, middle), sender, signal);
    const tail = await sendIsolatingPayloadFailures(messages.slice(middle), sender, signal);
    return [...head, ...tail];
  }
}

/** An SDK answered fewer entry results than entries it was given: treat the gap as unknown. */
function missingResult(): EntryResult {
  return {
    status: 'failed',
    failure: failure('temporary', 'MissingEntryResult', 'The destination did not report this entry'),
    resendable: false,
  };
}

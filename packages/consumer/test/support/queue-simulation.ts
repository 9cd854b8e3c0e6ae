import { deduplicationKey, type DeliveryPayload } from '@herald/model';
import { sleep } from '../../src/clock.js';
import { createConsumer, type Consumer, type DedupStore, type GapNotice, type LateNotice, type OrderingOptions } from '../../src/index.js';
import { orderKeyOf } from '../../src/ordering/order-rules.js';
import { cloudEventOf, createdPayload, deletedPayload, messagePayload, snsEnvelopeOf, updatedPayload } from './fixtures.js';
import { KillableStore } from './killable-store.js';
import type { ClockScope, ManualClock } from './manual-clock.js';
import { nextTurn } from './until.js';

/*
 * A queue, N consumer processes and a clock, simulated: deliveries arrive at planned times (with
 * copies and in any order), a process may throw in a handler or die in the middle of one, and the
 * queue redelivers whatever was not acknowledged. Used by the property tests.
 */

export interface ResourcePlan {
  readonly messages: number;
  /** Version steps of the change chain after ResourceCreated (v1); undefined = no changes. */
  readonly changeSteps?: readonly number[];
  /** `at-last-version`: ResourceDeleted with the version of the last change (§6.2 "version at deletion"). */
  readonly deletion?: 'none' | 'at-last-version';
}

export interface CopyPlan {
  /** When this copy becomes visible, ms after the start. */
  readonly arriveAt: number;
  readonly format: 'platform' | 'cloudevents' | 'sns';
}

export interface Scenario {
  readonly resources: readonly ResourcePlan[];
  /** Per planned delivery (in plan order), its copies; the first one is the original. */
  readonly copies: readonly (readonly CopyPlan[])[];
  readonly processes: number;
  /** How long each handler run takes on the simulated clock (longer than the lease: renewals must keep it). */
  readonly handlerMs?: number;
  /** Per-resource ordering on (the default) or off (deduplication only). */
  readonly ordered?: boolean;
  readonly crash?: { readonly deliveryIndex: number; readonly mode: 'throw' | 'die' };
}

export interface PlannedDelivery {
  readonly key: string;
  readonly laneKey: string;
  readonly ordinal: number;
  readonly payload: DeliveryPayload;
}

export interface SimulationSettings {
  readonly clock: ManualClock;
  /** A fresh store view per run (e.g. a Redis store with its own key prefix). */
  readonly store: DedupStore;
  readonly maxWaitMs: number;
  /** The consumers' `ordering.unknownStart` (default `wait`: every start is waited for, so order is strict). */
  readonly unknownStart?: OrderingOptions['unknownStart'];
  /** When a dead process' unacknowledged messages reappear. */
  readonly visibilityTimeoutMs: number;
  readonly maxSteps?: number;
}

export interface Completion {
  readonly key: string;
  readonly process: number;
  readonly gap: GapNotice | undefined;
  readonly late: LateNotice | undefined;
}

export interface SimulationResult {
  readonly planned: readonly PlannedDelivery[];
  /** Successful handler runs, in the order they happened. */
  readonly completions: readonly Completion[];
  readonly deadLettered: number;
  readonly deadProcesses: ReadonlySet<number>;
  readonly leftInQueue: number;
}

/** The deliveries a plan describes, resource by resource, lane order within each. */
export function plannedDeliveries(resources: readonly ResourcePlan[], keyPrefix = 'herald'): PlannedDelivery[] {
  const planned: PlannedDelivery[] = [];
  resources.forEach((plan, resourceIndex) => {
    const ref = { id: `res-${resourceIndex}`, typeId: resourceIndex % 2 === 0 ? 'business-unit' : 'quote-request' };
    const payloads: DeliveryPayload[] = [];
    for (let sequenceNumber = 1; sequenceNumber <= plan.messages; sequenceNumber++) payloads.push(messagePayload(sequenceNumber, ref));
    if (plan.changeSteps !== undefined) {
      let version = 1;
      payloads.push(createdPayload(version, ref));
      for (const step of plan.changeSteps) {
        payloads.push(updatedPayload(version, version + step, ref));
        version += step;
      }
      if (plan.deletion === 'at-last-version') payloads.push(deletedPayload(version, ref));
    }
    for (const payload of payloads) {
      const order = orderKeyOf(payload);
      planned.push({ key: deduplicationKey(payload, keyPrefix), laneKey: `${ref.id}:${order.lane}`, ordinal: order.ordinal, payload });
    }
  });
  return planned;
}

function bodyOf(payload: DeliveryPayload, format: CopyPlan['format']): string {
  if (format === 'cloudevents') return JSON.stringify(cloudEventOf(payload));
  if (format === 'sns') return snsEnvelopeOf(JSON.stringify(payload));
  return JSON.stringify(payload);
}

interface QueueItem {
  readonly id: number;
  readonly key: string;
  readonly body: string;
  visibleAt: number;
  heldBy: Process | undefined;
  settled: Promise<unknown> | undefined;
}

interface Process {
  readonly number: number;
  readonly scope: ClockScope;
  readonly store: KillableStore;
  readonly consumer: Consumer;
  readonly pending: Set<QueueItem>;
  /** Handlers waiting for the clock (they take `handlerMs`). */
  sleeping: number;
  dead: boolean;
}

export async function simulate(scenario: Scenario, settings: SimulationSettings): Promise<SimulationResult> {
  const { clock } = settings;
  const planned = plannedDeliveries(scenario.resources, settings.store.keyPrefix);
  const startAt = clock.now();
  const queue = new Map<number, QueueItem>();
  let nextId = 0;
  planned.forEach((delivery, index) => {
    for (const copy of scenario.copies[index] ?? [{ arriveAt: 0, format: 'platform' as const }]) {
      const id = nextId++;
      queue.set(id, {
        id,
        key: delivery.key,
        body: bodyOf(delivery.payload, copy.format),
        visibleAt: startAt + copy.arriveAt,
        heldBy: undefined,
        settled: undefined,
      });
    }
  });

  const crashKey = scenario.crash === undefined ? undefined : planned[scenario.crash.deliveryIndex % planned.length]?.key;
  let crashed = false;
  const completions: Completion[] = [];
  const processes: Process[] = [];
  const deadProcesses = new Set<number>();
  let processCount = 0;
  let deadLettered = 0;

  const kill = (process: Process): void => {
    process.dead = true;
    process.store.dead = true;
    process.scope.freeze();
    deadProcesses.add(process.number);
    for (const item of process.pending) {
      item.heldBy = undefined;
      item.visibleAt = clock.now() + settings.visibilityTimeoutMs;
    }
    process.pending.clear();
    processes.splice(processes.indexOf(process), 1, spawn());
  };

  const spawn = (): Process => {
    const number = processCount++;
    const scope = clock.scope();
    const store = new KillableStore(settings.store);
    // The handler needs its process; the process needs the consumer built with the handler.
    const self: { process?: Process } = {};
    const consumer = createConsumer({
      dedup: store,
      clock: scope,
      // Above the number of deliveries of a run: a handler waiting for a slot would look busy forever to `idle`.
      concurrency: 64,
      instanceId: `process-${number}`,
      ordering:
        scenario.ordered === false ? undefined : { maxWaitMs: settings.maxWaitMs, positionRefreshMs: 500, unknownStart: settings.unknownStart ?? 'wait' },
      retry: { failureBaseMs: 100, busyMinMs: 100 },
      handler: async (_delivery, context) => {
        const process = self.process as Process;
        if (process.dead) return new Promise<void>(() => undefined);
        if (!crashed && context.dedupKey === crashKey && scenario.crash) {
          crashed = true;
          if (scenario.crash.mode === 'throw') throw new Error('injected handler failure');
          kill(process);
          return new Promise<void>(() => undefined);
        }
        if (scenario.handlerMs) {
          process.sleeping++;
          await sleep(scope, scenario.handlerMs);
          process.sleeping--;
          if (process.dead) return new Promise<void>(() => undefined);
        }
        completions.push({ key: context.dedupKey, process: process.number, gap: context.gap, late: context.late });
      },
    });
    const process: Process = { number, scope, store, consumer, pending: new Set(), sleeping: 0, dead: false };
    self.process = process;
    return process;
  };

  const deliver = (item: QueueItem, process: Process): void => {
    item.heldBy = process;
    process.pending.add(item);
    item.settled = process.consumer
      .process(
        { source: 'sqs', body: item.body },
        {
          ack: () => {
            if (process.dead) return;
            queue.delete(item.id);
          },
          nack: (retryAfterMs) => {
            if (process.dead) return;
            item.heldBy = undefined;
            item.visibleAt = clock.now() + retryAfterMs;
          },
          deadLetter: () => {
            if (process.dead) return;
            deadLettered++;
            queue.delete(item.id);
          },
        },
      )
      .then(() => {
        process.pending.delete(item);
      });
  };

  /** Every live process is idle: nothing in flight but deliveries waiting for the clock (buffered or in a slow handler). */
  const idle = (): boolean =>
    processes.every((process) => {
      if (process.store.inFlight > 0) return false;
      const pendingKeys = new Set([...process.pending].map((item) => item.key));
      return pendingKeys.size === process.consumer.bufferedCount + process.sleeping;
    });

  const settle = async (): Promise<void> => {
    let stableTurns = 0;
    for (let turn = 0; turn < 200_000 && stableTurns < 3; turn++) {
      await nextTurn();
      stableTurns = idle() ? stableTurns + 1 : 0;
    }
    if (stableTurns < 3) {
      const state = processes.map((process) => ({
        process: process.number,
        storeCallsInFlight: process.store.inFlight,
        pendingKeys: [...new Set([...process.pending].map((item) => item.key))],
        buffered: process.consumer.bufferedCount,
        sleeping: process.sleeping,
      }));
      throw new Error(`the consumers never became idle: ${JSON.stringify(state)}`);
    }
  };

  for (let index = 0; index < scenario.processes; index++) processes.push(spawn());

  let roundRobin = 0;
  const maxSteps = settings.maxSteps ?? 20_000;
  for (let step = 0; queue.size > 0; step++) {
    if (step > maxSteps) throw new Error(`no progress after ${maxSteps} steps; ${queue.size} messages left`);
    const now = clock.now();
    for (const item of queue.values()) {
      if (item.heldBy !== undefined || item.visibleAt > now) continue;
      deliver(item, processes[roundRobin++ % processes.length] as Process);
    }
    await settle();
    if (queue.size === 0) break;
    let nextVisible = Number.POSITIVE_INFINITY;
    for (const item of queue.values()) if (item.heldBy === undefined) nextVisible = Math.min(nextVisible, item.visibleAt);
    const next = Math.min(nextVisible, clock.nextTimerAt());
    if (next === Number.POSITIVE_INFINITY) {
      throw new Error(`stuck: ${queue.size} messages held, no timer pending: ${[...queue.values()].map((item) => item.key).join(', ')}`);
    }
    clock.advanceTo(Math.max(next, clock.now()));
    await settle();
  }

  for (const process of processes) await process.consumer.close();
  return { planned, completions, deadLettered, deadProcesses, leftInQueue: queue.size };
}

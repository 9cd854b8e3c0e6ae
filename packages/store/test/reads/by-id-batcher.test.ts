/**
 * The by-id read batcher (issue 30): reads asked for in one turn of the event loop go out as one
 * load per project and type, each read gets its own document (or undefined), a failed load fails
 * only its own batch, no load carries more ids than the bound, and while the bound of running loads
 * of a project and type is reached, the reads asked for meanwhile wait and then go out together.
 */
import { describe, expect, it } from 'vitest';
import { ByIdBatcher, type LoadByIds } from '../../src/reads/by-id-batcher.js';

interface Call {
  projectKey: string;
  typeId: string;
  ids: readonly string[];
}

/** A loader over fixed documents that records every call. */
function recordingLoader(docs: Record<string, string>, fail?: (call: Call) => boolean): { load: LoadByIds<string>; calls: Call[] } {
  const calls: Call[] = [];
  const load: LoadByIds<string> = async (projectKey, typeId, ids) => {
    const call = { projectKey, typeId, ids };
    calls.push(call);
    if (fail?.(call) === true) throw new Error(`load of ${typeId} failed`);
    return new Map(ids.filter((id) => id in docs).map((id) => [id, `${projectKey}/${typeId}/${docs[id]}`]));
  };
  return { load, calls };
}

describe('ByIdBatcher', () => {
  it('answers reads of one turn with one load, each read its own document, in the order asked', async () => {
    const { load, calls } = recordingLoader({ a: 'A', b: 'B', c: 'C' });
    const batcher = new ByIdBatcher(load);
    const answers = await Promise.all(['c', 'a', 'b', 'a'].map((id) => batcher.read('p1', 'store', id)));
    expect(answers).toEqual(['p1/store/C', 'p1/store/A', 'p1/store/B', 'p1/store/A']);
    expect(calls).toEqual([{ projectKey: 'p1', typeId: 'store', ids: ['c', 'a', 'b'] }]);
  });

  it('gives two reads of one id documents of their own: a change one caller makes is not seen by the other', async () => {
    const load: LoadByIds<{ id: string; ref: { id: string; obj?: unknown } }> = async (_projectKey, _typeId, ids) =>
      new Map(ids.map((id) => [id, { id, ref: { id: 'c1' } }]));
    const batcher = new ByIdBatcher(load);
    const [first, second] = await Promise.all([batcher.read('p1', 'cart', 'a'), batcher.read('p1', 'cart', 'a')]);
    // What reference expansion does for one request only (its token may view the customer).
    if (first !== undefined) first.ref.obj = { secret: true };
    expect(second).toEqual({ id: 'a', ref: { id: 'c1' } });
    expect(second).not.toBe(first);
  });

  it('answers undefined for a missing id without failing the others', async () => {
    const { load } = recordingLoader({ a: 'A' });
    const batcher = new ByIdBatcher(load);
    await expect(Promise.all([batcher.read('p1', 'store', 'a'), batcher.read('p1', 'store', 'missing')])).resolves.toEqual(['p1/store/A', undefined]);
  });

  it('loads each project and type separately', async () => {
    const { load, calls } = recordingLoader({ a: 'A' });
    const batcher = new ByIdBatcher(load);
    const answers = await Promise.all([batcher.read('p1', 'store', 'a'), batcher.read('p2', 'store', 'a'), batcher.read('p1', 'channel', 'a')]);
    expect(answers).toEqual(['p1/store/A', 'p2/store/A', 'p1/channel/A']);
    expect(calls.map((call) => `${call.projectKey}/${call.typeId}`).sort()).toEqual(['p1/channel', 'p1/store', 'p2/store']);
  });

  it('fails only the reads of the batch whose load failed', async () => {
    const { load } = recordingLoader({ a: 'A' }, (call) => call.typeId === 'channel');
    const batcher = new ByIdBatcher(load);
    const [store, channel] = await Promise.allSettled([batcher.read('p1', 'store', 'a'), batcher.read('p1', 'channel', 'a')]);
    expect(store).toEqual({ status: 'fulfilled', value: 'p1/store/A' });
    expect(channel).toMatchObject({ status: 'rejected', reason: new Error('load of channel failed') });
    // The batcher goes on serving after a failure.
    await expect(batcher.read('p1', 'store', 'a')).resolves.toBe('p1/store/A');
  });

  it('never loads more ids than its bound', async () => {
    const docs = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`id-${i}`, `D${i}`]));
    const { load, calls } = recordingLoader(docs);
    const batcher = new ByIdBatcher(load, 4);
    const answers = await Promise.all(Object.keys(docs).map((id) => batcher.read('p1', 'store', id)));
    expect(answers).toEqual(Object.values(docs).map((doc) => `p1/store/${doc}`));
    expect(calls.map((call) => call.ids.length)).toEqual([4, 4, 2]);
  });

  it('issues a read asked for after a load started in a load of its own (never answered from an earlier one)', async () => {
    let version = 1;
    const calls: Array<readonly string[]> = [];
    const batcher = new ByIdBatcher<number>(async (_projectKey, _typeId, ids) => {
      calls.push(ids);
      return new Map(ids.map((id) => [id, version]));
    });
    const first = batcher.read('p1', 'store', 'a');
    await new Promise((resolve) => setImmediate(resolve));
    version = 2; // a write acknowledged after the first load was issued
    await expect(Promise.all([first, batcher.read('p1', 'store', 'a')])).resolves.toEqual([1, 2]);
    expect(calls).toEqual([['a'], ['a']]);
  });

  it('holds reads back while the bound of running loads is reached, then sends them in one load that starts after the running one ended', async () => {
    let version = 1;
    const calls: Array<readonly string[]> = [];
    const running: Array<() => void> = [];
    const batcher = new ByIdBatcher<number>(
      (_projectKey, _typeId, ids) => {
        calls.push(ids);
        // A statement's snapshot is taken when it starts; the test decides when its answer arrives.
        const answer = new Map(ids.map((id) => [id, version]));
        return new Promise((resolve) => running.push(() => resolve(answer)));
      },
      128,
      1,
    );
    const first = batcher.read('p1', 'store', 'a');
    await nextTurn();
    const held = [batcher.read('p1', 'store', 'b'), batcher.read('p1', 'store', 'a')];
    await nextTurn();
    await nextTurn();
    expect(calls).toEqual([['a']]);
    version = 2; // a write acknowledged while the first load ran, after the held reads were asked for
    running.shift()?.();
    await expect(first).resolves.toBe(1);
    await nextTurn();
    expect(calls).toEqual([['a'], ['b', 'a']]);
    running.shift()?.();
    await expect(Promise.all(held)).resolves.toEqual([2, 2]);
  });

  it('holds back only the reads of the project and type whose loads are running', async () => {
    const calls: string[] = [];
    const pending: Array<() => void> = [];
    const batcher = new ByIdBatcher<string>(
      (projectKey, typeId, ids) => {
        calls.push(`${projectKey}/${typeId}`);
        return new Promise((resolve) => pending.push(() => resolve(new Map(ids.map((id) => [id, `${typeId}/${id}`])))));
      },
      128,
      1,
    );
    const store = batcher.read('p1', 'store', 'a');
    await nextTurn();
    const channel = batcher.read('p1', 'channel', 'a');
    await nextTurn();
    expect(calls).toEqual(['p1/store', 'p1/channel']);
    pending.forEach((release) => release());
    await expect(Promise.all([store, channel])).resolves.toEqual(['store/a', 'channel/a']);
  });

  it('goes on with held reads after a running load failed', async () => {
    let calls = 0;
    const releases: Array<() => void> = [];
    const batcher = new ByIdBatcher<string>(
      (_projectKey, _typeId, ids) => {
        const fails = ++calls === 1;
        return new Promise((resolve, reject) =>
          releases.push(() => (fails ? reject(new Error('load failed')) : resolve(new Map(ids.map((id) => [id, id.toUpperCase()]))))),
        );
      },
      128,
      1,
    );
    const failing = batcher.read('p1', 'store', 'a');
    await nextTurn();
    const held = batcher.read('p1', 'store', 'b');
    await nextTurn();
    expect(calls).toBe(1);
    releases.shift()?.();
    await expect(failing).rejects.toThrow('load failed');
    await nextTurn();
    releases.shift()?.();
    await expect(held).resolves.toBe('B');
  });

  it('rejects a bound that is not a positive integer', () => {
    const { load } = recordingLoader({});
    expect(() => new ByIdBatcher(load, 0)).toThrow(RangeError);
    expect(() => new ByIdBatcher(load, 1.5)).toThrow(RangeError);
    expect(() => new ByIdBatcher(load, 4, 0)).toThrow(RangeError);
  });
});

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

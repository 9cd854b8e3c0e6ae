/** Receives one request's result (callback style: no promise per request on the hot path). */
export type BatchCallback<Result> = (error: unknown, result: Result | undefined) => void;

/**
 * Coalesces single requests made in the same turn of the event loop into one batch call, so N
 * concurrent claims cost one Redis round trip. A batch is sent at the end of the turn
 * (`setImmediate`), or at once when it reaches `maxBatchSize`. A failed batch fails every request
 * in it.
 */
export class MicroBatcher<Request, Result> {
  private requests: Request[] = [];
  private callbacks: BatchCallback<Result>[] = [];
  private scheduled = false;
  private readonly flushAtTurnEnd = (): void => {
    this.scheduled = false;
    this.flush();
  };

  constructor(
    private readonly runBatch: (requests: Request[]) => Promise<readonly Result[]>,
    private readonly maxBatchSize: number,
  ) {}

  enqueue(request: Request, callback: BatchCallback<Result>): void {
    this.requests.push(request);
    this.callbacks.push(callback);
    if (this.requests.length >= this.maxBatchSize) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushAtTurnEnd);
    }
  }

  submit(request: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.enqueue(request, (error, result) => (error === undefined ? resolve(result as Result) : reject(error)));
    });
  }

  private flush(): void {
    const requests = this.requests;
    const callbacks = this.callbacks;
    if (requests.length === 0) return;
    this.requests = [];
    this.callbacks = [];
    let batch: Promise<readonly Result[]>;
    try {
      batch = this.runBatch(requests);
    } catch (error) {
      batch = Promise.reject(error);
    }
    batch.then(
      (results) => deliverAll(callbacks, (callback, index) => callback(undefined, results[index])),
      (error: unknown) => {
        const failure = error ?? new Error('batch failed');
        deliverAll(callbacks, (callback) => callback(failure, undefined));
      },
    );
  }
}

/**
 * Calls every callback even if one throws (a bug), so the others are not left hanging; the first
 * error is rethrown afterwards and surfaces as an unhandled rejection.
 */
function deliverAll<Result>(callbacks: readonly BatchCallback<Result>[], call: (callback: BatchCallback<Result>, index: number) => void): void {
  let firstError: unknown;
  let failed = false;
  for (let index = 0; index < callbacks.length; index++) {
    try {
      call(callbacks[index] as BatchCallback<Result>, index);
    } catch (error) {
      if (!failed) firstError = error;
      failed = true;
    }
  }
  if (failed) throw firstError;
}

/** Receives one request's result (callback style: no promise per request on the hot path). */
export type BatchCallback<Result> = (error: unknown, result: Result | undefined) => void;

/** Receives a request with its result: one function for every request, so none needs a closure. */
export type RequestSettler<Request, Result> = (request: Request, error: unknown, result: Result | undefined) => void;

/**
 * Coalesces single requests made in the same turn of the event loop into one batch call, so N
 * concurrent claims cost one Redis round trip. A batch is sent at the end of the turn
 * (`setImmediate`), or at once when it reaches `maxBatchSize`. A failed batch fails every request
 * in it.
 */
export class MicroBatcher<Request, Result> {
  private requests: Request[] = [];
  /** Per request; `undefined` where the batcher's `settleRequest` takes the result. */
  private callbacks: (BatchCallback<Result> | undefined)[] = [];
  private scheduled = false;
  private readonly flushAtTurnEnd = (): void => {
    this.scheduled = false;
    this.flush();
  };

  constructor(
    private readonly runBatch: (requests: Request[]) => Promise<readonly Result[]>,
    private readonly maxBatchSize: number,
    private readonly settleRequest?: RequestSettler<Request, Result>,
  ) {}

  /** Queues a request; without `callback` its result goes to the batcher's `settleRequest`. */
  enqueue(request: Request, callback?: BatchCallback<Result>): void {
    if (callback === undefined && this.settleRequest === undefined) throw new TypeError('no callback and no settleRequest');
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
      (results) => this.deliverAll(requests, callbacks, undefined, results),
      (error: unknown) => this.deliverAll(requests, callbacks, error ?? new Error('batch failed'), undefined),
    );
  }

  /**
   * Settles every request even if a callback throws (a bug), so the others are not left hanging;
   * the first error is rethrown afterwards and surfaces as an unhandled rejection.
   */
  private deliverAll(
    requests: readonly Request[],
    callbacks: readonly (BatchCallback<Result> | undefined)[],
    error: unknown,
    results: readonly Result[] | undefined,
  ): void {
    let firstError: unknown;
    let failed = false;
    for (let index = 0; index < requests.length; index++) {
      const result = results?.[index];
      try {
        const callback = callbacks[index];
        if (callback !== undefined) callback(error, result);
        else (this.settleRequest as RequestSettler<Request, Result>)(requests[index] as Request, error, result);
      } catch (callbackError) {
        if (!failed) firstError = callbackError;
        failed = true;
      }
    }
    if (failed) throw firstError;
  }
}

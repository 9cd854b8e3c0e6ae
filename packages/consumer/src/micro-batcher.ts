interface Waiting<Request, Result> {
  readonly request: Request;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Coalesces single requests made in the same turn of the event loop into one batch call, so N
 * concurrent claims cost one Redis round trip. A batch is sent at the end of the turn
 * (`setImmediate`), or at once when it reaches `maxBatchSize`. A failed batch rejects every request
 * in it.
 */
export class MicroBatcher<Request, Result> {
  private waiting: Waiting<Request, Result>[] = [];
  private scheduled = false;

  constructor(
    private readonly runBatch: (requests: Request[]) => Promise<readonly Result[]>,
    private readonly maxBatchSize: number,
  ) {}

  submit(request: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      if (this.waiting.length >= this.maxBatchSize) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    Promise.resolve()
      .then(() => this.runBatch(batch.map((waiting) => waiting.request)))
      .then(
        (results) => {
          batch.forEach((waiting, index) => waiting.resolve(results[index] as Result));
        },
        (error: unknown) => {
          for (const waiting of batch) waiting.reject(error);
        },
      );
  }
}

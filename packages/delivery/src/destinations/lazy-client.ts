/** An SDK client created on first use and kept until `close()`. */
export interface LazyClient<T> {
  /** The client, created by the first call; later calls share it. */
  get(): Promise<T>;
  /** Forgets the client and releases it; the next `get()` would create a new one. */
  close(): Promise<void>;
}

export interface LazyClientOptions<T> {
  /**
   * Releases what `close()` forgot. It gets the creation's promise, which may have failed; without
   * it, `close()` only forgets the client.
   */
  release?: (pending: Promise<T>) => Promise<void>;
  /** Forgets a failed creation, so the next `get()` tries again; by default the failure is kept. */
  retryFailedCreate?: boolean;
}

/**
 * The client cache every adapter shares. `create` loads the adapter's SDK with `import()`, so an
 * SDK is loaded only when its destination sends (or verifies) for the first time.
 */
export function lazyClient<T>(create: () => Promise<T>, options: LazyClientOptions<T> = {}): LazyClient<T> {
  let current: Promise<T> | undefined;
  return {
    get() {
      if (current !== undefined) return current;
      const pending = create();
      current = pending;
      if (options.retryFailedCreate === true) {
        pending.catch(() => {
          if (current === pending) current = undefined;
        });
      }
      return pending;
    },
    async close() {
      const pending = current;
      current = undefined;
      if (pending !== undefined) await options.release?.(pending);
    },
  };
}

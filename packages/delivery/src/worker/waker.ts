/**
 * A sleep that can be cut short: loops wait on it between polls, and anything that knows there is
 * work (a routed batch, a PostgreSQL notification, shutdown) wakes them at once. A wake that comes
 * while nobody waits is remembered, so it is never lost between two polls.
 */
export class Waker {
  private waiting: (() => void) | undefined;
  private woken = false;

  wait(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (this.waiting === done) this.waiting = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting = done;
    });
  }

  wake(): void {
    const waiting = this.waiting;
    if (waiting === undefined) {
      this.woken = true;
      return;
    }
    this.waiting = undefined;
    waiting();
  }
}

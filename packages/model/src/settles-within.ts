/**
 * Whether `work` settles (fulfilled or rejected) within `ms`. A bounded wait on something that
 * may hang (a database that stopped answering, a close that waits for a client); the work goes on
 * regardless, and its rejection, if any, is handled here.
 */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((done) => (timer = setTimeout(() => done(false), ms)));
  const settled = work.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

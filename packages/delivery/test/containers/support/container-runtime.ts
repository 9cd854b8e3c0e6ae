/**
 * Whether a container runtime (a Docker engine) is reachable. The suites of this folder start
 * LocalStack and the vendors' emulators with testcontainers; where no engine runs (CI machines of
 * this project, most laptops without Docker) they are skipped with the reason printed, never failed.
 * testcontainers' own probe answers in milliseconds when nothing is there.
 */
export type ContainerRuntime = { available: true } | { available: false; reason: string };

let probe: Promise<ContainerRuntime> | undefined;

export function containerRuntime(): Promise<ContainerRuntime> {
  probe ??= (async (): Promise<ContainerRuntime> => {
    try {
      const { getContainerRuntimeClient } = await import('testcontainers');
      await getContainerRuntimeClient();
      return { available: true };
    } catch (error) {
      return { available: false, reason: error instanceof Error ? error.message : String(error) };
    }
  })();
  return probe;
}

/**
 * The suite's title, which names the skip reason when there is no runtime (so the reporter shows
 * why), and a line on the console saying the same.
 */
export function suiteTitle(title: string, runtime: ContainerRuntime): string {
  if (runtime.available) return title;
  console.warn(`[containers] skipped "${title}": no container runtime (${runtime.reason}). These suites run wherever Docker does.`);
  return `${title} — skipped: no container runtime (${runtime.reason})`;
}

/** Container start-up (image pulls included) is slow; hooks get this long. */
export const CONTAINER_STARTUP_MS = 300_000;

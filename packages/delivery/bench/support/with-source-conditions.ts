import { spawnSync } from 'node:child_process';

const CONDITION = '--conditions=@herald/source';

/**
 * The workspace packages resolve to their TypeScript sources only under the `@herald/source`
 * export condition (as in tests). A bench started as `npx tsx packages/delivery/bench/x.ts` lacks
 * it, so this re-runs the same command with it and exits with the child's status; otherwise it
 * imports the bench body.
 */
export async function runWithSourceConditions(body: () => Promise<unknown>): Promise<void> {
  const active = process.execArgv.includes(CONDITION) || (process.env.NODE_OPTIONS ?? '').includes(CONDITION);
  if (active) {
    await body();
    return;
  }
  const child = spawnSync(process.execPath, [...process.execArgv, CONDITION, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', METADATA_SERVER_DETECTION: 'none' },
  });
  process.exit(child.status ?? 1);
}

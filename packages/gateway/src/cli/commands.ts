import { openDatabase, ProjectStore } from '@herald/store';
import { loadConfig } from '../config/config.js';
import { createApiClientCommand } from '../oauth/create-api-client.js';
import { withMaskedExternalOAuth } from '../oauth/external/settings.js';
import { createLogger, startHerald } from '../server/start.js';

const USAGE = `Usage:
  herald serve                     run the gateway (PORT, HOST, DATABASE_URL, HERALD_* variables)
  herald projects create KEY       create a project
  herald clients create --project KEY --scope "SCOPES" [--name NAME]
                                   create an API client; prints its id and secret once
  herald help                      show this text
`;

/** Runs one CLI command; resolves to an exit code, or undefined for a long-running server. */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number | undefined> {
  const [command, ...rest] = args;
  switch (command) {
    case 'serve':
      return serve(env);
    case 'projects':
      return projects(rest, env);
    case 'clients':
      return clients(rest, env);
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`herald: unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

async function serve(env: NodeJS.ProcessEnv): Promise<undefined> {
  const config = loadConfig(env);
  const logger = createLogger(config);
  const herald = await startHerald(config, logger);
  // stop() is bounded by HERALD_SHUTDOWN_TIMEOUT_MS: exit 0 when everything stopped in time, 1 when
  // it failed. A second, different signal while stopping must not start a second stop.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    herald.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  return undefined;
}

async function projects(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [action, key] = args;
  if (action !== 'create' || key === undefined) {
    process.stderr.write('Usage: herald projects create KEY\n');
    return 2;
  }
  const config = loadConfig({ ...env, HERALD_PROJECTS: key });
  const db = await openDatabase(config.databaseUrl);
  try {
    const project = await new ProjectStore(db).ensure(key);
    // The project may already exist with External OAuth set: its header is a secret (§5.7).
    process.stdout.write(`${JSON.stringify(withMaskedExternalOAuth(project))}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

/** `--name value` pairs after the sub-command; a flag without a value is an error. */
function flags(args: readonly string[]): Map<string, string> | undefined {
  const parsed = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i];
    const value = args[i + 1];
    if (name === undefined || !name.startsWith('--') || value === undefined) return undefined;
    parsed.set(name.slice(2), value);
  }
  return parsed;
}

async function clients(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [action, ...rest] = args;
  const options = flags(rest);
  const projectKey = options?.get('project');
  const scope = options?.get('scope');
  if (action !== 'create' || projectKey === undefined || scope === undefined) {
    process.stderr.write('Usage: herald clients create --project KEY --scope "manage_project:KEY …" [--name NAME]\n');
    return 2;
  }
  const config = loadConfig(env);
  const db = await openDatabase(config.databaseUrl);
  try {
    const name = options?.get('name');
    return await createApiClientCommand(
      { db, stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) },
      { projectKey, scope, ...(name === undefined ? {} : { name }) },
    );
  } finally {
    await db.close();
  }
}

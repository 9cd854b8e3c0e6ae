import { openDatabase, ProjectStore } from '@herald/store';
import { loadConfig } from '../config/config.js';
import { createLogger, startHerald } from '../server/start.js';

const USAGE = `Usage:
  herald serve                     run the gateway (PORT, HOST, DATABASE_URL, HERALD_* variables)
  herald projects create KEY       create a project
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
  const shutdown = (signal: string) => {
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
    process.stdout.write(`${JSON.stringify(project)}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

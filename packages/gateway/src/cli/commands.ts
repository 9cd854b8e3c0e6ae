import { createRequire } from 'node:module';
import { openDatabase, ProjectStore } from '@herald/store';
import { loadConfig } from '../config/config.js';
import { createApiClientCommand } from '../oauth/create-api-client.js';
import { withMaskedExternalOAuth } from '../oauth/external/settings.js';
import { serve } from './serve.js';
import { StopSignals } from './stop-signals.js';

const USAGE = `Usage: herald <command> [options]

Commands:
  serve                            run the gateway (PORT, HOST, DATABASE_URL, HERALD_* variables)
  projects create KEY              create a project
  clients create --project KEY --scope "SCOPES" [--name NAME]
                                   create an API client; prints its id and secret once
  help [COMMAND]                   show this text, or a command's

Options:
  -h, --help                       show usage (also after a command) and exit
  -v, --version                    print the version and exit

Configuration is read from the environment: see docs/configuration.md.
`;

/** Each command's own usage, printed by `herald <command> --help` (exit 0) or on a mistake (exit 2). */
const COMMAND_USAGE: Readonly<Record<string, string>> = {
  serve: `Usage: herald serve

Runs the gateway with the in-process delivery worker (HERALD_DELIVERY=off: gateway only).
Configured by PORT, HOST, DATABASE_URL, LOG_LEVEL and HERALD_* variables (docs/configuration.md).
Stops on SIGTERM or SIGINT within HERALD_SHUTDOWN_TIMEOUT_MS.
`,
  projects: `Usage: herald projects create KEY

Creates the project KEY in DATABASE_URL's database (or prints it when it exists).
`,
  clients: `Usage: herald clients create --project KEY --scope "manage_project:KEY …" [--name NAME]

Creates an API client of project KEY with the given space-separated scopes and prints its id and
secret once, as one JSON line.
`,
};

const HELP_FLAGS: ReadonlySet<string> = new Set(['-h', '--help']);
const VERSION_FLAGS: ReadonlySet<string> = new Set(['-v', '--version']);

/** Herald's version, from the gateway package's package.json (the same file in src/ and dist/ runs). */
function version(): string {
  const manifest = createRequire(import.meta.url)('../../package.json') as { version: string };
  return manifest.version;
}

/**
 * Runs one CLI command; resolves to an exit code, or undefined for a long-running server. Help and
 * version requests are answered before anything else, so they never open a database or start a
 * server, wherever the flag stands. `signals`, caught by the entry point before it loaded this
 * module, go to `serve`; every other command gives them back to their default action.
 */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv, signals?: StopSignals): Promise<number | undefined> {
  const [command, ...rest] = args;
  const serving = command === 'serve' && rest.length === 0;
  if (!serving) signals?.release();
  if (command !== undefined && VERSION_FLAGS.has(command)) return print(`herald ${version()}\n`);
  if (command === undefined) return fail(USAGE);
  if (HELP_FLAGS.has(command)) return print(USAGE);
  if (command === 'help') return print(rest[0] === undefined ? USAGE : (COMMAND_USAGE[rest[0]] ?? USAGE));
  const usage = Object.hasOwn(COMMAND_USAGE, command) ? COMMAND_USAGE[command] : undefined;
  if (usage === undefined) return fail(`herald: unknown command "${command}"\n${USAGE}`);
  if (rest.some((arg) => HELP_FLAGS.has(arg))) return print(usage);
  switch (command) {
    case 'serve':
      return serving ? serve(env, signals ?? new StopSignals()) : fail(`herald: serve takes no arguments\n${usage}`);
    case 'projects':
      return projects(rest, env);
    default:
      return clients(rest, env);
  }
}

function print(text: string): number {
  process.stdout.write(text);
  return 0;
}

/** Usage mistakes: the text on stderr, exit code 2. */
function fail(text: string): number {
  process.stderr.write(text);
  return 2;
}

async function projects(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [action, key] = args;
  if (action !== 'create' || key === undefined) {
    return fail(COMMAND_USAGE.projects ?? USAGE);
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
    return fail(COMMAND_USAGE.clients ?? USAGE);
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

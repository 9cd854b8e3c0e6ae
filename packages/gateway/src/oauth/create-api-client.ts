import { systemClock, type Clock } from '@herald/model';
import { ProjectStore, type Database } from '@herald/store';
import { ApiClientStore } from './api-client-store.js';
import { validateClientScopes } from './client-scopes.js';

export interface CreateApiClientCommandDeps {
  /** An open, migrated database (`openDatabase(config.databaseUrl)`); the caller closes it. */
  db: Database;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  clock?: Clock;
}

export interface CreateApiClientCommandOptions {
  /** `--project KEY`: the project must exist. */
  projectKey: string;
  /** `--scope "manage_stores:KEY view_customers:KEY"`: space-separated scopes of that project. */
  scope: string;
  /** `--name`; defaults to "herald-cli". */
  name?: string;
}

/**
 * `herald clients create --project KEY --scope "…" [--name NAME]`: creates an API client and
 * prints, once, one JSON line with its id and secret (`{"id","secret","name","projectKey","scope"}`)
 * to stdout. The secret cannot be shown again: only its hash is stored. Resolves to the exit code:
 * 0 on success, 1 when the project or the scopes are invalid (explained on stderr).
 */
export async function createApiClientCommand(deps: CreateApiClientCommandDeps, options: CreateApiClientCommandOptions): Promise<number> {
  const clock = deps.clock ?? systemClock;
  if ((await new ProjectStore(deps.db, clock).get(options.projectKey)) === undefined) {
    deps.stderr(`herald: the project '${options.projectKey}' does not exist (create it with: herald projects create KEY)\n`);
    return 1;
  }
  let scopes: string[];
  try {
    scopes = validateClientScopes(options.scope, options.projectKey);
  } catch (error) {
    deps.stderr(`herald: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const { client, secret } = await new ApiClientStore(deps.db, clock).create({
    projectKey: options.projectKey,
    name: options.name ?? 'herald-cli',
    scopes,
  });
  deps.stdout(`${JSON.stringify({ id: client.id, secret, name: client.name, projectKey: options.projectKey, scope: scopes.join(' ') })}\n`);
  deps.stderr('herald: store the secret now; it is shown only this once.\n');
  return 0;
}

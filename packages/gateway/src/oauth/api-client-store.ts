import { randomBytes } from 'node:crypto';
import type { Clock } from '@herald/model';
import type { Database, Queryable } from '@herald/store';
import { newSecret, scryptHash, sha256SecretHash, verifySecret } from './secrets.js';
import { splitScopes } from './scopes.js';
import { deleteTokensOfClient } from './token-store.js';

/** An API client as stored: never its secret, only the secret's hash (§5.2, ARCHITECTURE "Storage"). */
export interface ApiClientRecord {
  id: string;
  /** Undefined only for the bootstrap client, which spans every configured project. */
  projectKey: string | undefined;
  name: string;
  scopes: readonly string[];
  secretHash: string;
  createdAt: string;
}

export interface NewApiClient {
  projectKey: string;
  name: string;
  scopes: readonly string[];
}

interface ClientRow {
  id: string;
  project_key: string | null;
  name: string;
  scope: string;
  secret_hash: string;
  created_at: Date | string;
}

const COLUMNS = 'id, project_key, name, scope, secret_hash, created_at';

function toRecord(row: ClientRow): ApiClientRecord {
  return {
    id: row.id,
    projectKey: row.project_key ?? undefined,
    name: row.name,
    scopes: splitScopes(row.scope),
    secretHash: row.secret_hash,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** 18 random bytes → 24 characters of `[A-Za-z0-9_-]`, the length of the platform's client ids. */
function newClientId(): string {
  return randomBytes(18).toString('base64url');
}

export class ApiClientStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Creates a client with a generated secret; the secret is returned here and never again. */
  async create(client: NewApiClient): Promise<{ client: ApiClientRecord; secret: string }> {
    const secret = newSecret();
    const record: ApiClientRecord = {
      id: newClientId(),
      projectKey: client.projectKey,
      name: client.name,
      scopes: client.scopes,
      secretHash: sha256SecretHash(secret),
      createdAt: this.clock.now().toISOString(),
    };
    await this.db.query(`INSERT INTO api_clients (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
      record.id,
      record.projectKey,
      record.name,
      record.scopes.join(' '),
      record.secretHash,
      record.createdAt,
    ]);
    return { client: record, secret };
  }

  /**
   * `HERALD_BOOTSTRAP_CLIENT`: creates the client, or brings its secret and scopes in line with
   * the configuration. The operator chose this secret, so it is hashed with scrypt (secrets.ts).
   */
  async ensureBootstrap(id: string, secret: string, scopes: readonly string[]): Promise<void> {
    const existing = await this.get(id);
    const scope = scopes.join(' ');
    if (existing !== undefined && existing.scopes.join(' ') === scope && (await verifySecret(secret, existing.secretHash))) {
      return;
    }
    await this.db.query(
      `INSERT INTO api_clients (${COLUMNS}) VALUES ($1, NULL, 'bootstrap', $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET scope = EXCLUDED.scope, secret_hash = EXCLUDED.secret_hash`,
      [id, scope, await scryptHash(secret), this.clock.now().toISOString()],
    );
  }

  async get(id: string): Promise<ApiClientRecord | undefined> {
    const result = await this.db.query<ClientRow>(`SELECT ${COLUMNS} FROM api_clients WHERE id = $1`, [id]);
    const row = result.rows[0];
    return row === undefined ? undefined : toRecord(row);
  }

  async getInProject(projectKey: string, id: string): Promise<ApiClientRecord | undefined> {
    const client = await this.get(id);
    return client?.projectKey === projectKey ? client : undefined;
  }

  async list(projectKey: string, limit: number, offset: number): Promise<{ clients: ApiClientRecord[]; total: number }> {
    const page = await this.db.query<ClientRow>(`SELECT ${COLUMNS} FROM api_clients WHERE project_key = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`, [
      projectKey,
      limit,
      offset,
    ]);
    const counted = await this.db.query<{ total: number }>('SELECT count(*)::int AS total FROM api_clients WHERE project_key = $1', [projectKey]);
    return { clients: page.rows.map(toRecord), total: counted.rows[0]?.total ?? 0 };
  }

  /** Deletes the client and every token issued to it, in one transaction. */
  async delete(projectKey: string, id: string): Promise<ApiClientRecord | undefined> {
    return this.db.transaction(async (tx: Queryable) => {
      const deleted = await tx.query<ClientRow>(`DELETE FROM api_clients WHERE id = $1 AND project_key = $2 RETURNING ${COLUMNS}`, [id, projectKey]);
      const row = deleted.rows[0];
      if (row === undefined) return undefined;
      await deleteTokensOfClient(tx, id);
      return toRecord(row);
    });
  }
}

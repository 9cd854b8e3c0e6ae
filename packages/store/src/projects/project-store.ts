import { concurrentModification, resourceNotFound, systemClock, type Clock } from '@herald/model';
import type { Database, Queryable } from '../database/types.js';

/** The project document (the tenant), with the settings later features read. */
export interface Project {
  key: string;
  name: string;
  version: number;
  createdAt: string;
  lastModifiedAt: string;
  countries: string[];
  currencies: string[];
  languages: string[];
  messages: { enabled: boolean; deleteDaysAfterCreation: number };
  /** Absent on projects created before the setting existed (their carts keep 90 days). */
  carts?: { deleteDaysAfterLastModification: number };
  [setting: string]: unknown;
}

export function newProject(key: string, now: string): Project {
  return {
    key,
    name: key,
    version: 1,
    createdAt: now,
    lastModifiedAt: now,
    countries: [],
    currencies: [],
    languages: [],
    messages: { enabled: true, deleteDaysAfterCreation: 15 },
    // The default retention of new carts (§8 automatic cleanup; the gateway's carts/retention.ts).
    carts: { deleteDaysAfterLastModification: 90 },
  };
}

export class ProjectStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Creates the project if it does not exist yet; returns it either way. */
  async ensure(key: string): Promise<Project> {
    const project = newProject(key, this.clock.now().toISOString());
    await this.db.query('INSERT INTO projects (key, version, doc) VALUES ($1, 1, $2) ON CONFLICT (key) DO NOTHING', [key, project]);
    return (await this.get(key)) ?? project;
  }

  async get(key: string): Promise<Project | undefined> {
    const result = await this.db.query<{ doc: Project }>('SELECT doc FROM projects WHERE key = $1', [key]);
    return result.rows[0]?.doc;
  }

  async list(): Promise<Project[]> {
    const result = await this.db.query<{ doc: Project }>('SELECT doc FROM projects ORDER BY key');
    return result.rows.map((row) => row.doc);
  }

  /** Applies `apply` with optimistic concurrency; the version grows only when something changed. */
  async update(
    key: string,
    expectedVersion: number,
    /** Runs in the update's transaction; reads it makes go through `tx` (see DocumentStore.within). */
    apply: (project: Project, tx: Queryable) => Promise<Project> | Project,
  ): Promise<Project> {
    return this.db.transaction(async (tx) => {
      const result = await tx.query<{ doc: Project }>('SELECT doc FROM projects WHERE key = $1 FOR UPDATE', [key]);
      const current = result.rows[0]?.doc;
      if (current === undefined) throw resourceNotFound(`The project '${key}' was not found.`);
      if (current.version !== expectedVersion) throw concurrentModification(current.version, expectedVersion);
      const next = await apply(structuredClone(current), tx);
      if (JSON.stringify(next) === JSON.stringify(current)) return current;
      const updated = {
        ...next,
        key,
        version: current.version + 1,
        createdAt: current.createdAt,
        lastModifiedAt: this.clock.now().toISOString(),
      };
      await tx.query('UPDATE projects SET version = $2, doc = $3 WHERE key = $1', [key, updated.version, updated]);
      return updated;
    });
  }
}

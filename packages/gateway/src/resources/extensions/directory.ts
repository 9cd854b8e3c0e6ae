import { systemClock, type Clock } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import { EXTENSION_TYPE_ID, MAX_EXTENSIONS_PER_PROJECT, type Extension, type ExtensionAction } from './extension.js';

/**
 * The Extensions of each project, as the write hook needs them on every write of a triggered
 * type: cached, so a cart create costs no extra query. Changes made through this gateway are seen
 * at once (`forget`); another gateway instance's within `ttlMs` (the reference: "it may take up to
 * a minute for the changes to take effect").
 */
export class ExtensionDirectory {
  private readonly entries = new Map<string, { extensions: readonly Extension[]; expires: number }>();

  constructor(
    private readonly documents: DocumentStore,
    private readonly clock: Clock = systemClock,
    private readonly ttlMs = 5_000,
  ) {}

  /**
   * `reader`: the store of the write that asks, which may be inside a transaction (`within(tx)`):
   * on PGlite a read outside that transaction would wait for it to end, and it waits for this read.
   */
  async of(projectKey: string, reader: DocumentStore = this.documents): Promise<readonly Extension[]> {
    const now = this.clock.now().getTime();
    const cached = this.entries.get(projectKey);
    if (cached !== undefined && cached.expires > now) return cached.extensions;
    // Twice the limit: a count that raced past it is still read whole.
    const page = await reader.query<Extension>(projectKey, EXTENSION_TYPE_ID, { limit: 2 * MAX_EXTENSIONS_PER_PROJECT, sort: ['createdAt asc'] });
    this.entries.set(projectKey, { extensions: page.results, expires: now + this.ttlMs });
    return page.results;
  }

  /** The Extensions with a trigger for this resource type and action (conditions not yet evaluated). */
  async triggeredBy(projectKey: string, resourceTypeId: string, action: ExtensionAction, reader?: DocumentStore): Promise<Extension[]> {
    const all = await this.of(projectKey, reader);
    return all.filter((extension) => extension.triggers.some((trigger) => trigger.resourceTypeId === resourceTypeId && trigger.actions.includes(action)));
  }

  forget(projectKey: string): void {
    this.entries.delete(projectKey);
  }
}

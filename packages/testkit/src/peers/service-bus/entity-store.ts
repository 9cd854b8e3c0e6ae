import { Entity, type EntityPolicy } from './entity.js';

/**
 * The namespace's entities by path. Paths are case-insensitive, as in Service Bus:
 * `queue`, `topic`, `topic/Subscriptions/sub`, and `<entity>/$DeadLetterQueue` for dead letters.
 */
export class EntityStore {
  private readonly entities = new Map<string, Entity>();

  constructor(
    private readonly policy: EntityPolicy,
    private readonly onAvailable: (entity: Entity) => void,
  ) {}

  /** Creates the entity (idempotent). A subscription path also creates its topic. */
  create(path: string): Entity {
    const normalized = normalizePath(path);
    const existing = this.entities.get(key(normalized));
    if (existing) return existing;
    if (isDeadLetterPath(normalized)) throw new Error(`'${path}' is a dead-letter queue; create its entity instead.`);
    const entity = new Entity(normalized, this.policy, this.onAvailable);
    const topicPath = subscriptionTopic(normalized);
    if (topicPath !== undefined) this.create(topicPath).subscriptions.add(entity);
    this.entities.set(key(normalized), entity);
    return entity;
  }

  /** Deletes the entity (a topic with its subscriptions); returns what was deleted. */
  delete(path: string): Entity[] {
    const normalized = normalizePath(path);
    const entity = this.entities.get(key(normalized));
    if (entity === undefined) return [];
    const deleted = [entity, ...entity.subscriptions];
    for (const each of deleted) this.entities.delete(key(each.path));
    const topicPath = subscriptionTopic(normalized);
    if (topicPath !== undefined) this.entities.get(key(topicPath))?.subscriptions.delete(entity);
    return deleted;
  }

  /** The entity an address designates, including dead-letter queues; undefined when it does not exist. */
  find(path: string): Entity | undefined {
    const normalized = normalizePath(path);
    if (isDeadLetterPath(normalized)) {
      return this.entities.get(key(normalized.slice(0, -DEAD_LETTER_SUFFIX.length)))?.deadLetterQueue;
    }
    return this.entities.get(key(normalized));
  }

  /** For the test-facing API: an unknown entity there is a mistake in the test. */
  get(path: string): Entity {
    const entity = this.find(path);
    if (entity === undefined) throw new Error(`The Service Bus peer has no entity '${path}'.`);
    return entity;
  }

  all(): Entity[] {
    return [...this.entities.values()];
  }
}

const DEAD_LETTER_SUFFIX = '/$deadletterqueue';
const MANAGEMENT_SUFFIX = '/$management';

export function normalizePath(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/** The entity a `<entity>/$management` address belongs to, or undefined for other addresses. */
export function managementEntityPath(address: string): string | undefined {
  const normalized = normalizePath(address);
  return normalized.toLowerCase().endsWith(MANAGEMENT_SUFFIX) ? normalized.slice(0, -MANAGEMENT_SUFFIX.length) : undefined;
}

function key(path: string): string {
  return path.toLowerCase();
}

function isDeadLetterPath(path: string): boolean {
  return path.toLowerCase().endsWith(DEAD_LETTER_SUFFIX);
}

function subscriptionTopic(path: string): string | undefined {
  const match = /^(.+)\/subscriptions\/[^/]+$/i.exec(path);
  return match?.[1];
}

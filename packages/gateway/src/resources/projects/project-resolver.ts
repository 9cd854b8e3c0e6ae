import { resourceNotFound, systemClock, type Clock } from '@herald/model';
import type { Project, ProjectStore } from '@herald/store';
import type { FastifyInstance } from 'fastify';

/**
 * Loads the project of `/:projectKey/...` routes (after authentication, so a caller without a
 * token learns nothing about which projects exist). Cached briefly: settings changed by another
 * gateway instance take effect within `ttlMs`; changes made here are seen at once (`forget`).
 */
export class ProjectCache {
  private readonly entries = new Map<string, { project: Project; expires: number }>();

  constructor(
    private readonly projects: ProjectStore,
    private readonly clock: Clock = systemClock,
    private readonly ttlMs = 5_000,
  ) {}

  async get(key: string): Promise<Project | undefined> {
    const now = this.clock.now().getTime();
    const cached = this.entries.get(key);
    if (cached !== undefined && cached.expires > now) return cached.project;
    const project = await this.projects.get(key);
    if (project === undefined) this.entries.delete(key);
    else this.entries.set(key, { project, expires: now + this.ttlMs });
    return project;
  }

  remember(project: Project): void {
    this.entries.set(project.key, { project, expires: this.clock.now().getTime() + this.ttlMs });
  }
}

export function installProjectResolver(app: FastifyInstance, cache: ProjectCache): void {
  app.addHook('preHandler', async (request) => {
    const projectKey = (request.params as { projectKey?: string } | undefined)?.projectKey;
    if (projectKey === undefined) return;
    // `/oauth/{projectKey}/…` are public routes that authenticate the client in their handler,
    // after this hook: resolving the project here would answer an unknown key 404 before any
    // authentication and before the token rate limit, so anyone could enumerate project keys.
    // Those handlers check the project themselves, after client authentication (oauth/routes.ts).
    if (request.routeOptions.config.auth === 'public' && request.routeOptions.url?.startsWith('/oauth/') === true) return;
    const project = await cache.get(projectKey);
    if (project === undefined) throw resourceNotFound(`The project '${projectKey}' was not found.`);
    request.project = project;
  });
}

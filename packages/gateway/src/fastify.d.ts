import type { Project } from '@herald/store';
import type { AuthContext, RouteAuth } from './auth/types.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    auth?: AuthContext;
    project?: Project;
  }
}

import { defineConfig } from 'vitest/config';
import { sharedTestConfig } from '../../vitest.shared.js';

export default defineConfig(
  sharedTestConfig(import.meta.dirname, {
    shareModules: true,
    // Asserts that starting a gateway emits no Fastify deprecation warning: Fastify emits each
    // one once per process, so in a shared worker an earlier file could have used it up.
    isolatedFiles: ['test/http/request-logs.test.ts'],
  }),
);

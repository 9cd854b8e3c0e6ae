import { defineConfig } from 'vitest/config';
import { sharedTestConfig } from '../../../../vitest.shared.js';
const base = sharedTestConfig('/work/main/packages/gateway');
const aliases = Object.entries(base.resolve?.alias as Record<string, string>).map(([find, replacement]) => ({ find, replacement }));
export default defineConfig({ ...base, resolve: { alias: [...aliases, { find: /^\.\/fastify\.js$/, replacement: '/work/main/packages/gateway/test/quote-requests/empty-module.ts' }] } });

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
// `yaml` is in the workspace's node_modules (a dependency of testcontainers), not declared here.
import { parse } from 'yaml';

/** The repository root (this file is packages/delivery/test/containers/support). */
export const REPOSITORY_ROOT = resolve(import.meta.dirname, '..', '..', '..', '..', '..');

/**
 * The image docker-compose.yml pins for a service: the suites test the emulator versions the
 * stack runs, from one place.
 */
export function composeImage(service: string): string {
  const compose = parse(readFileSync(resolve(REPOSITORY_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services?: Record<string, { image?: string }>;
  };
  const image = compose.services?.[service]?.image;
  if (image === undefined) throw new Error(`docker-compose.yml has no image for service "${service}"`);
  return image;
}

export function repositoryFile(...segments: string[]): string {
  return readFileSync(resolve(REPOSITORY_ROOT, ...segments), 'utf8');
}

/**
 * The development GraphiQL page works offline (issue 25): it references only files Herald serves
 * from its own npm dependencies, pinned to exact versions, never a CDN.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

const P = 'graphiql-offline';
const ASSET_PACKAGES = ['graphiql', 'react', 'react-dom'] as const;
const requireFromGateway = createRequire(new URL('../../package.json', import.meta.url));

interface PackageJson {
  version: string;
  dependencies: Record<string, string>;
}

const gatewayPackage = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageJson;

/** Every `src="…"` and `href="…"` of the page. */
function referencedUrls(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1] as string);
}

/** `/graphiql/assets/{package}@{version}/{file}` → the file in that installed package. */
function installedFile(url: string): { packageName: string; version: string; bytes: Buffer } {
  const match = /^\/graphiql\/assets\/((?:@[^/]+\/)?[^@/]+)@([^/]+)\/(.+)$/.exec(url);
  if (match === null) throw new Error(`not an asset URL: ${url}`);
  const [, packageName = '', version = '', file = ''] = match;
  const directory = dirname(requireFromGateway.resolve(`${packageName}/package.json`));
  return { packageName, version, bytes: readFileSync(join(directory, file)) };
}

describe('GraphiQL offline', () => {
  let gateway: TestGateway;
  let page: string;

  beforeAll(async () => {
    gateway = await startTestGateway({ projects: [P], config: { mode: 'development' } });
    page = (await gateway.app.inject({ method: 'GET', url: '/graphiql' })).body;
  }, 60_000);
  afterAll(async () => gateway.close());

  it('references no other host: no absolute or protocol-relative URL anywhere in the page', () => {
    expect(page).toContain('GraphiQL');
    expect(page).not.toMatch(/\b[a-z][a-z0-9+.-]*:\/\//i);
    expect(page).not.toMatch(/["'(]\/\//);
    const urls = referencedUrls(page);
    expect(urls.length).toBe(4);
    for (const url of urls) expect(url).toMatch(/^\/graphiql\/assets\//);
  });

  it('loads a stylesheet and the three scripts GraphiQL needs, React first', () => {
    const stylesheets = [...page.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]);
    const scripts = [...page.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1] as string);
    expect(stylesheets).toHaveLength(1);
    expect(scripts.map((url) => installedFile(url).packageName)).toEqual(['react', 'react-dom', 'graphiql']);
  });

  it('serves every referenced file from the installed npm package, with its content type', async () => {
    for (const url of referencedUrls(page)) {
      const response = await gateway.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe(url.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8');
      expect(response.headers['cache-control'], url).toContain('immutable');
      const installed = installedFile(url);
      expect(response.rawPayload.equals(installed.bytes), `${url} is the installed file`).toBe(true);
    }
  });

  it('takes them from dependencies pinned to exact versions, the versions in the URLs', () => {
    for (const name of ASSET_PACKAGES) {
      const pinned = gatewayPackage.dependencies[name];
      expect(pinned, name).toMatch(/^\d+\.\d+\.\d+$/);
      const installed = (requireFromGateway(`${name}/package.json`) as PackageJson).version;
      expect(installed, name).toBe(pinned);
    }
    const versions = referencedUrls(page).map((url) => installedFile(url));
    for (const { packageName, version } of versions) expect(version).toBe(gatewayPackage.dependencies[packageName]);
  });

  it('serves nothing under /graphiql/assets/ but those files', async () => {
    const [first] = referencedUrls(page);
    for (const url of [`${first}.map`, '/graphiql/assets/graphiql@3.9.0/package.json', '/graphiql/assets/react@18.3.1/../../package.json']) {
      const response = await gateway.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).not.toBe(200);
    }
  });

  it('serves no asset in production mode', async () => {
    const production = await startTestGateway({ projects: [P], config: { mode: 'production' } });
    try {
      for (const url of referencedUrls(page)) {
        const response = await production.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
      }
    } finally {
      await production.close();
    }
  }, 60_000);
});

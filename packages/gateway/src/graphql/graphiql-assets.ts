import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * The files the development GraphiQL page loads, served by Herald from its own npm dependencies
 * (pinned to exact versions in package.json) so the page works offline and trusts no CDN
 * (issue 25). GraphiQL 3 is the last major with a standalone browser bundle (`graphiql.min.js`,
 * which expects React and ReactDOM as globals); React 18 is the last with UMD builds.
 */
export interface GraphiqlAsset {
  /** The npm package the file comes from. */
  readonly packageName: 'graphiql' | 'react' | 'react-dom';
  /** The file's path inside that package. */
  readonly file: string;
  readonly contentType: string;
}

const JAVASCRIPT = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** In the order the page loads them: GraphiQL's bundle needs React and ReactDOM first. */
export const GRAPHIQL_STYLESHEET: GraphiqlAsset = { packageName: 'graphiql', file: 'graphiql.min.css', contentType: CSS };
export const GRAPHIQL_SCRIPTS: readonly GraphiqlAsset[] = [
  { packageName: 'react', file: 'umd/react.production.min.js', contentType: JAVASCRIPT },
  { packageName: 'react-dom', file: 'umd/react-dom.production.min.js', contentType: JAVASCRIPT },
  { packageName: 'graphiql', file: 'graphiql.min.js', contentType: JAVASCRIPT },
];

const requireFromHere = createRequire(import.meta.url);

/** Each of these packages exports its package.json, which locates its directory and version. */
function packageJsonPath(packageName: GraphiqlAsset['packageName']): string {
  return requireFromHere.resolve(`${packageName}/package.json`);
}

function installedVersion(packageName: GraphiqlAsset['packageName']): string {
  return (requireFromHere(packageJsonPath(packageName)) as { version: string }).version;
}

/**
 * `/graphiql/assets/{package}@{version}/{file}`: the version in the path lets browsers cache a
 * file for good, and an upgrade of the dependency changes its URL.
 */
export function graphiqlAssetUrl(asset: GraphiqlAsset): string {
  return `/graphiql/assets/${asset.packageName}@${installedVersion(asset.packageName)}/${asset.file}`;
}

const ONE_YEAR_SECONDS = 31_536_000;

/** One route per file (no path parameter, so no path can reach another file); read on first use. */
export function registerGraphiqlAssets(app: FastifyInstance): void {
  for (const asset of [GRAPHIQL_STYLESHEET, ...GRAPHIQL_SCRIPTS]) {
    const path = join(dirname(packageJsonPath(asset.packageName)), asset.file);
    let contents: Promise<Buffer> | undefined;
    app.get(graphiqlAssetUrl(asset), { config: { auth: 'public' } }, async (_request, reply) => {
      // A failed read is not kept: the next request tries again.
      contents ??= readFile(path).catch((error: unknown) => {
        contents = undefined;
        throw error;
      });
      return reply
        .type(asset.contentType)
        .header('cache-control', `public, max-age=${ONE_YEAR_SECONDS}, immutable`)
        .send(await contents);
    });
  }
}

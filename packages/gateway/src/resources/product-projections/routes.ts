import { resourceNotFound, type Clock } from '@herald/model';
import { runPagedQuery, type Locator } from '@herald/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { queryRequest } from '../../http/query-params.js';
import { PRODUCT_TYPE_ID, type Product } from '../products/product.js';
import type { ProductProjection } from '../products/projection.js';
import type { ResourceDeps } from '../shared/context.js';
import { expanding, locatorOf, type ResourceParams } from '../shared/route-helpers.js';
import type { Store } from '../stores/store.js';
import { storeAssortment } from '../product-selections/availability.js';
import { offeredProjection } from '../product-selections/offered-projection.js';
import { projectionDocumentSql, projectionFieldRoot, PUBLISHED_SQL } from './fields.js';
import { projectionOptions, type ProjectionOptions } from './options.js';
import { priceDiscounter } from './discounting.js';
import { presentProjection } from './present.js';
import { standalonePriceBook } from './standalone-pricing.js';
import { PROJECTION_SCOPES } from './scopes.js';
import { registerSearchRoutes } from './search/routes.js';

type Query = Record<string, string | string[] | undefined>;
type Params = ResourceParams & { storeKey?: string };

function notFound(locator: Locator): Error {
  const what = 'id' in locator ? `id '${locator.id}'` : `key '${locator.key}'`;
  return resourceNotFound(`The product projection with ${what} was not found.`);
}

/**
 * `/{projectKey}/product-projections` (reference: resources/product-projections.raml): products
 * projected to their current data (only published products) or, with `staged=true`, their staged
 * data; by id and key; predicates and sort on projection fields (fields.ts); price, locale and
 * store projection (present.ts). In-store forms: by id and key only, as the reference has them
 * (resources/in-store/product-projections-in-store.raml), projected by the path's store.
 */
export function registerProductProjectionRoutes(app: FastifyInstance, deps: ResourceDeps, clock: Clock): void {
  const { documents } = deps;

  const readOne = async (request: FastifyRequest, options: ProjectionOptions): Promise<ProductProjection> => {
    const params = request.params as Params;
    const product = await documents.get<Product>(params.projectKey, PRODUCT_TYPE_ID, locatorOf(params));
    // "If a Product is unpublished, the endpoint returns a Not Found error" (current projection).
    if (product === undefined || (!options.staged && !product.masterData.published)) throw notFound(locatorOf(params));
    const now = clock.now();
    const { projectKey } = params;
    const [discounter, standalone] = await Promise.all([
      priceDiscounter({ documents, projectKey, products: [product], staged: options.staged, now }),
      standalonePriceBook({ db: documents.db, projectKey, products: [product], staged: options.staged, criteria: options.price }),
    ]);
    return presentProjection(product, options, now, discounter, standalone);
  };

  app.get(
    '/:projectKey/product-projections',
    { config: PROJECTION_SCOPES },
    expanding(documents, async (request, expansion) => {
      const { projectKey } = request.params as Params;
      const options = await projectionOptions({ query: request.query as Query, auth: request.auth, documents, projectKey });
      const scope = ['r.project_key = $1', 'r.type_id = $2', ...(options.staged ? [] : [PUBLISHED_SQL])];
      const page = await runPagedQuery<Product>(documents.db, 'resources', scope, [projectKey, PRODUCT_TYPE_ID], {
        ...queryRequest(request.query as Query),
        fieldRoot: projectionFieldRoot(options.staged),
        documentSql: projectionDocumentSql(options.staged),
      });
      const now = clock.now();
      const products = page.results;
      // One read each for the whole page, whatever its size (discounting.ts, standalone-pricing.ts).
      const [discounter, standalone] = await Promise.all([
        priceDiscounter({ documents, projectKey, products, staged: options.staged, now }),
        standalonePriceBook({ db: documents.db, projectKey, products, staged: options.staged, criteria: options.price }),
      ]);
      return { ...page, results: await expansion.all(products.map((product) => presentProjection(product, options, now, discounter, standalone))) };
    }),
  );

  for (const path of ['/:projectKey/product-projections/:id', '/:projectKey/product-projections/key=:key']) {
    app.get(
      path,
      { config: PROJECTION_SCOPES },
      expanding(documents, async (request, expansion) => {
        const { projectKey } = request.params as Params;
        const options = await projectionOptions({ query: request.query as Query, auth: request.auth, documents, projectKey });
        return expansion.one(await readOne(request, options));
      }),
    );
  }

  for (const path of ['/:projectKey/in-store/key=:storeKey/product-projections/:id', '/:projectKey/in-store/key=:storeKey/product-projections/key=:key']) {
    app.get(
      path,
      { config: PROJECTION_SCOPES },
      expanding(documents, async (request, expansion) => {
        const { projectKey, storeKey = '' } = request.params as Params;
        const store = await documents.get<Store>(projectKey, 'store', { key: storeKey });
        if (store === undefined) throw resourceNotFound(`The store with key '${storeKey}' was not found.`);
        const options = await projectionOptions({ query: request.query as Query, auth: request.auth, documents, projectKey, inStore: store });
        // A product outside the Store's Product Selections is not in the Store (reference: Store.productSelections).
        const offered = offeredProjection(await readOne(request, options), await storeAssortment(documents, projectKey, store));
        if (offered === undefined) throw notFound(locatorOf(request.params as Params));
        return expansion.one(offered);
      }),
    );
  }

  registerSearchRoutes(app, deps, clock);
}

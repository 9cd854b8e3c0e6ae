import { resourceNotFound } from '@herald/model';
import type { DocumentStore } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import { booleanParam, queryRequest, versionParam } from '../../http/query-params.js';
import { registerCustomerTokenRoutes } from '../customer-tokens/routes.js';
import { CustomerTokenService } from '../customer-tokens/service.js';
import { customerOf } from '../shared/buyer.js';
import { requestContext } from '../shared/context.js';
import { expanding, locatorOf } from '../shared/route-helpers.js';
import type { CustomerService } from './service.js';
import { changePassword } from './password-change.js';
import { signIn, type SignInKind } from './sign-in.js';

type Params = { projectKey: string; storeKey?: string; id?: string; key?: string };
type Query = Record<string, string | string[] | undefined>;

const VIEW = { auth: { anyOf: ['view_customers', 'manage_customers'] } } as const;
const MANAGE = { auth: { anyOf: ['manage_customers'] } } as const;
/** `GET /{projectKey}/me`: the token's own customer (password flow token). */
const ME = { auth: { anyOf: ['view_my_profile', 'manage_my_profile'], me: 'customer' } } as const;
/** me.raml `/password`: `manage_my_profile` with `customer_id:{id}`. */
const MY_PROFILE = { auth: { anyOf: ['manage_my_profile'], me: 'customer' } } as const;
/** `POST /{projectKey}/me/login`: any token with `manage_my_profile`, an anonymous session's too (me.raml). */
const MY_LOGIN = { auth: { anyOf: ['manage_my_profile'] } } as const;

/**
 * Customers, project-wide (`/{projectKey}/customers`) and per store
 * (`/{projectKey}/in-store/key={storeKey}/customers`): the eight operations of the resource
 * template, plus `GET /{projectKey}/me`. Not built with `registerVersionedRoutes` because the
 * password needs its own storage and the in-store variant filters by store.
 */
export function registerCustomerRoutes(app: FastifyInstance, service: CustomerService, documents: DocumentStore): void {
  for (const base of ['/:projectKey/customers', '/:projectKey/in-store/key=:storeKey/customers']) {
    app.get(
      base,
      { config: VIEW },
      expanding(documents, async (request, expansion) => {
        const params = request.params as Params;
        const page = await service.query(params.projectKey, queryRequest(request.query as Query), params.storeKey);
        page.results = await expansion.all(page.results);
        return page;
      }),
    );

    // The platform answers a sign-up with a CustomerSignInResult: `{customer}`.
    app.post(
      base,
      { config: MANAGE },
      expanding(documents, async (request, expansion, reply) => {
        const ctx = requestContext(request, documents);
        const customer = await service.create(ctx, request.body, (request.params as Params).storeKey);
        return reply.status(201).send({ customer: await expansion.one(customer) });
      }),
    );

    for (const path of [`${base}/:id`, `${base}/key=:key`]) {
      app.get(
        path,
        { config: VIEW },
        expanding(documents, async (request, expansion) => {
          const params = request.params as Params;
          return expansion.one(await service.get(params.projectKey, locatorOf(params), params.storeKey));
        }),
      );
      app.post(
        path,
        { config: MANAGE },
        expanding(documents, async (request, expansion) => {
          const params = request.params as Params;
          const ctx = requestContext(request, documents);
          return expansion.one(await service.update(ctx, locatorOf(params), request.body, params.storeKey));
        }),
      );
      app.delete(
        path,
        { config: MANAGE },
        expanding(documents, async (request, expansion) => {
          const params = request.params as Params;
          const query = request.query as Query;
          const ctx = requestContext(request, documents);
          const deleted = await service.delete(ctx, locatorOf(params), versionParam(query), booleanParam(query, 'dataErasure', false), params.storeKey);
          return expansion.one(deleted);
        }),
      );
    }
  }

  registerSignInRoutes(app, service, documents);
  registerPasswordChangeRoutes(app, service, documents);
  // E-mail verification and password reset (resources/customers.raml `/email-token`, `/password-token`, …).
  registerCustomerTokenRoutes(app, new CustomerTokenService(documents, service), documents, service.clock);

  app.get(
    '/:projectKey/me',
    { config: ME },
    expanding(documents, async (request, expansion) => {
      const { projectKey } = request.params as Params;
      const customerId = request.auth?.customerId;
      if (customerId === undefined) throw resourceNotFound('The token names no customer.');
      return expansion.one(await service.get(projectKey, { id: customerId }, undefined));
    }),
  );
}

/**
 * Sign-in (login.raml, me.raml and in-store.raml): `POST /{projectKey}/login` for API clients
 * (`manage_customers`), `POST /{projectKey}/me/login` for front ends (`manage_my_profile`), each
 * also under `/in-store/key={storeKey}`; 200 with a CustomerSignInResult, 400 InvalidCredentials.
 */
function registerSignInRoutes(app: FastifyInstance, service: CustomerService, documents: DocumentStore): void {
  for (const prefix of ['/:projectKey', '/:projectKey/in-store/key=:storeKey']) {
    const routes: Array<[string, { auth: { anyOf: readonly string[] } }, SignInKind]> = [
      [`${prefix}/login`, MANAGE, 'customer'],
      [`${prefix}/me/login`, MY_LOGIN, 'my'],
    ];
    for (const [path, config, kind] of routes) {
      app.post(
        path,
        { config },
        expanding(documents, async (request, expansion) => {
          const { storeKey } = request.params as Params;
          const ctx = requestContext(request, documents);
          const result = await signIn(service, documents, ctx, request.body, { kind, storeKey });
          const customer = await expansion.one(result.customer);
          return result.cart === undefined ? { customer } : { customer, cart: await expansion.one(result.cart) };
        }),
      );
    }
  }
}

/**
 * Password change (customers.raml, me.raml, in-store/customers-in-store.raml and
 * my-carts-orders-shoppinglists-in-store.raml `/password`): `…/customers/password` for API clients
 * (`manage_customers`), `…/me/password` for the token's customer (`manage_my_profile`), each also
 * under `/in-store/key={storeKey}`; 200 with the Customer.
 */
function registerPasswordChangeRoutes(app: FastifyInstance, service: CustomerService, documents: DocumentStore): void {
  for (const prefix of ['/:projectKey', '/:projectKey/in-store/key=:storeKey']) {
    app.post(
      `${prefix}/customers/password`,
      { config: MANAGE },
      expanding(documents, async (request, expansion) => {
        const { storeKey } = request.params as Params;
        const place = { kind: 'customer' as const, ...(storeKey === undefined ? {} : { storeKey }) };
        return expansion.one(await changePassword(service, requestContext(request, documents), request.body, place));
      }),
    );
    app.post(
      `${prefix}/me/password`,
      { config: MY_PROFILE },
      expanding(documents, async (request, expansion) => {
        const { storeKey } = request.params as Params;
        const place = { kind: 'my' as const, customerId: customerOf(request.auth), ...(storeKey === undefined ? {} : { storeKey }) };
        return expansion.one(await changePassword(service, requestContext(request, documents), request.body, place));
      }),
    );
  }
}

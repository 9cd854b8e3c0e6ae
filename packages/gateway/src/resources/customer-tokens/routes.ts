import type { DocumentStore } from '@herald/store';
import type { Clock } from '@herald/model';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProjectRouteAuth } from '../../auth/types.js';
import { customerOf } from '../shared/buyer.js';
import { scheduleCleanup } from '../shared/cleanup-schedule.js';
import { requestContext } from '../shared/context.js';
import { expanding } from '../shared/route-helpers.js';
import type { CustomerTokenService, TokenPlace } from './service.js';
import { deleteExpiredTokens } from './sweep.js';
import type { CustomerTokenKind } from './token.js';

/**
 * The token value is the path's `:id` (`email-token=:id`): the parameter name every route that
 * addresses one resource uses, so the route walks of the security suites probe it as one.
 */
type Params = { projectKey: string; storeKey?: string; id?: string };

/** resources/customers.raml and in-store/customers-in-store.raml: the customers' scopes. */
const VIEW = { auth: { anyOf: ['view_customers', 'manage_customers'] } } as const;
const MANAGE = { auth: { anyOf: ['manage_customers'] } } as const;
/** me.raml `/email/confirm`, `/password/reset`: `manage_my_profile` with `customer_id:{id}`. */
const MY_PROFILE = { auth: { anyOf: ['manage_my_profile'], me: 'customer' } } as const;

const PREFIXES = ['/:projectKey', '/:projectKey/in-store/key=:storeKey'] as const;

/**
 * The customer token endpoints, project-wide and in a store: create an e-mail or password token
 * (200 with the CustomerToken, its only appearance of the value), read the customer of a token,
 * verify the e-mail, reset the password; and the `/me` forms of the last two.
 */
export function registerCustomerTokenRoutes(app: FastifyInstance, service: CustomerTokenService, documents: DocumentStore, clock: Clock): void {
  scheduleCleanup(app, 'customer tokens', (signal) => deleteExpiredTokens(documents, clock, signal));
  for (const prefix of PREFIXES) {
    const base = `${prefix}/customers`;
    app.post(`${base}/email-token`, { config: MANAGE }, async (request) => {
      return service.createEmailToken(requestContext(request, documents), request.body, storeOf(request));
    });
    app.post(`${base}/password-token`, { config: MANAGE }, async (request) => {
      return service.createPasswordToken(requestContext(request, documents), request.body, storeOf(request));
    });
    for (const kind of ['email', 'password'] as const satisfies readonly CustomerTokenKind[]) {
      app.get(
        `${base}/${kind}-token=:id`,
        { config: VIEW },
        expanding(documents, async (request, expansion) => {
          const { projectKey, id } = request.params as Params;
          return expansion.one(await service.customerOf(projectKey, kind, id ?? '', placeOf(request, false)));
        }),
      );
    }
    registerRedemptions(app, service, documents, base, MANAGE, false);
    registerRedemptions(app, service, documents, `${prefix}/me`, MY_PROFILE, true);
  }
}

/** `…/email/confirm` and `…/password/reset` under `base`. */
function registerRedemptions(
  app: FastifyInstance,
  service: CustomerTokenService,
  documents: DocumentStore,
  base: string,
  config: { auth: ProjectRouteAuth },
  me: boolean,
): void {
  app.post(
    `${base}/email/confirm`,
    { config },
    expanding(documents, async (request, expansion) => {
      return expansion.one(await service.confirmEmail(requestContext(request, documents), request.body, placeOf(request, me)));
    }),
  );
  app.post(
    `${base}/password/reset`,
    { config },
    expanding(documents, async (request, expansion) => {
      return expansion.one(await service.resetPassword(requestContext(request, documents), request.body, placeOf(request, me)));
    }),
  );
}

function storeOf(request: FastifyRequest): string | undefined {
  return (request.params as Params).storeKey;
}

function placeOf(request: FastifyRequest, me: boolean): TokenPlace {
  const storeKey = storeOf(request);
  return { ...(storeKey === undefined ? {} : { storeKey }), ...(me ? { customerId: customerOf(request.auth) } : {}) };
}

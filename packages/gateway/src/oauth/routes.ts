import { resourceNotFound } from '@herald/model';
import type { Project } from '@herald/store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiClientRecord } from './api-client-store.js';
import { basicCredentials, type ClientAuthenticator } from './client-auth.js';
import { OAuthError, oauthError } from './errors.js';
import { formOf, installFormBodyParser } from './form-body.js';
import type { RateDecision, TokenBucketLimiter } from './rate-limit.js';
import type { TokenService } from './token-service.js';

export interface OAuthRouteDeps {
  clients: ClientAuthenticator;
  tokens: TokenService;
  limiter: TokenBucketLimiter;
  /** The gateway's project cache: `/oauth/{projectKey}/…` check their project themselves. */
  projects: { get(key: string): Promise<Project | undefined> };
}

type Params = { projectKey: string; storeKey?: string };

/** The token endpoints are public routes: they authenticate the client themselves (§5.3). */
const PUBLIC = { auth: 'public' } as const;

/** RFC 6749 §5.1: token responses must not be cached. */
function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

/**
 * `/oauth/*` (§5.3–5.6), in their own plugin so that only they accept form bodies. Every request
 * is rate-limited (§5.9), then the client is authenticated with HTTP Basic.
 */
export async function registerOAuthRoutes(app: FastifyInstance, deps: OAuthRouteDeps): Promise<void> {
  await app.register(async (oauth) => {
    installFormBodyParser(oauth);

    const refuseIfLimited = (decision: RateDecision) => {
      if (!decision.allowed) {
        throw oauthError('too_many_requests', 'Too many token requests for this client; retry later.', {
          headers: { 'Retry-After': String(decision.retryAfterSeconds) },
        });
      }
    };

    // Until its secret checked out, a request is charged to the caller's address and the client id
    // it claims: ids are not secret, so charging the claimed client would let anyone lock it out
    // with wrong secrets. Secret guessing stays limited per address. Then the attempt is given back
    // and the request is charged to the client it authenticated as. An attempt that failed on the
    // server's side (the database out of reach) guessed nothing and is given back too, so clients
    // retrying through an outage get its 503, not a 429 afterwards.
    const authenticateClient = async (request: FastifyRequest): Promise<ApiClientRecord> => {
      const attempt = `attempt:${request.ip}:${basicCredentials(request.headers.authorization)?.id ?? ''}`;
      refuseIfLimited(deps.limiter.take(attempt));
      const client = await deps.clients.authenticate(request.headers.authorization).catch((error: unknown) => {
        if (!(error instanceof OAuthError)) deps.limiter.refund(attempt);
        throw error;
      });
      deps.limiter.refund(attempt);
      refuseIfLimited(deps.limiter.take(`client:${client.id}`));
      return client;
    };

    // The project resolver skips `/oauth/{projectKey}/…` (resources/projects/project-resolver.ts): the
    // project is checked only once the client authenticated, so a caller without valid client
    // credentials gets the same rate-limited 401 for every project key and learns none of them.
    // An authenticated client keeps the clear answer it had: 404, the project was not found.
    const authenticateClientOfProject = async (request: FastifyRequest): Promise<{ client: ApiClientRecord } & Params> => {
      const client = await authenticateClient(request);
      const params = request.params as Params;
      if ((await deps.projects.get(params.projectKey)) === undefined) {
        throw resourceNotFound(`The project '${params.projectKey}' was not found.`);
      }
      return { client, ...params };
    };

    oauth.post('/oauth/token', { config: PUBLIC }, async (request, reply) => {
      const client = await authenticateClient(request);
      return noStore(reply).send(await deps.tokens.token(client, formOf(request)));
    });

    for (const path of ['/oauth/:projectKey/customers/token', '/oauth/:projectKey/in-store/key=:storeKey/customers/token']) {
      oauth.post(path, { config: PUBLIC }, async (request, reply) => {
        const { client, projectKey, storeKey } = await authenticateClientOfProject(request);
        return noStore(reply).send(await deps.tokens.password(client, projectKey, storeKey, formOf(request)));
      });
    }

    oauth.post('/oauth/:projectKey/anonymous/token', { config: PUBLIC }, async (request, reply) => {
      const { client, projectKey } = await authenticateClientOfProject(request);
      return noStore(reply).send(await deps.tokens.anonymous(client, projectKey, formOf(request)));
    });

    oauth.post('/oauth/introspect', { config: PUBLIC }, async (request, reply) => {
      const client = await authenticateClient(request);
      return noStore(reply).send(await deps.tokens.introspect(client, formOf(request)));
    });

    // §5.6: 200 whether the token was revoked or the request was invalid; only a failed client
    // authentication is refused (otherwise anyone could probe for tokens), and a 5xx means the
    // token may still exist. The body parsers refuse some invalid requests before the handler
    // runs (another content type, malformed JSON, a body over the limit): those errors are
    // answered 200 here, once the client authenticated all the same. Errors raised before
    // parsing (§8's blocked requests) or by the handler keep their answer.
    const parsingBody = new WeakSet<FastifyRequest>();
    oauth.post(
      '/oauth/token/revoke',
      {
        config: PUBLIC,
        preParsing: async (request) => {
          parsingBody.add(request);
        },
        preValidation: async (request) => {
          parsingBody.delete(request);
        },
        errorHandler: async (error, request, reply) => {
          const refusedBody = parsingBody.delete(request) && error.statusCode !== undefined && error.statusCode < 500;
          if (!refusedBody) throw error;
          await authenticateClient(request);
          return reply.status(200).send();
        },
      },
      async (request, reply) => {
        const client = await authenticateClient(request);
        let form;
        try {
          form = formOf(request);
        } catch {
          return reply.status(200).send();
        }
        await deps.tokens.revoke(client, form);
        return reply.status(200).send();
      },
    );
  });
}

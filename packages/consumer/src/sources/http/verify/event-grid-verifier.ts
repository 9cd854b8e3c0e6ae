import type { JWTPayload } from 'jose';
import type { Clock } from '../../../clock.js';
import { headerValue } from '../http-reply.js';
import { BearerTokenVerifier } from './bearer-token.js';
import { absent, acceptedAsReceived, listOf, rejected, type PushRequest, type PushVerdict, type PushVerifier } from './push-verifier.js';
import { matchesSharedKey, sharedKeyDigests } from './shared-key.js';

/**
 * A secret Event Grid sends with every delivery: in the endpoint URL's query ("client secret as a
 * query parameter", Event Grid delivery authentication) or as a static delivery-property header.
 */
export interface EventGridSharedKeyOptions {
  /** The secret, or several while rotating. */
  readonly keys: string | readonly string[];
  /** Query parameter carrying it; default `code`. */
  readonly queryParameter?: string;
  /** Header carrying it (a delivery property marked secret); default `aeg-sas-key`. */
  readonly header?: string;
}

/** A webhook protected by Microsoft Entra ID: Event Grid sends `Authorization: Bearer <Entra access token>`. */
export interface EventGridEntraOptions {
  readonly tenantId: string;
  /** The webhook app's Application ID URI or client id (`aud`). */
  readonly audience: string | readonly string[];
  /** `appid` (v1 tokens) or `azp` (v2) that must be one of these: the Microsoft.EventGrid service principal's application id. */
  readonly applicationIds?: readonly string[];
  /** App role the token must carry (`roles`); default `AzureEventGridSecureWebhookSubscriber`, null for none. */
  readonly requiredRole?: string | null;
  /** Default `https://login.microsoftonline.com/<tenant>/discovery/v2.0/keys`. */
  readonly jwksUrl?: string | URL;
  /** Default the tenant's v1 and v2 issuers. */
  readonly issuers?: readonly string[];
  /** Default 60 s. */
  readonly clockToleranceSeconds?: number;
}

export interface EventGridVerificationOptions {
  readonly sharedKey?: EventGridSharedKeyOptions;
  readonly entra?: EventGridEntraOptions;
}

const DEFAULT_QUERY_PARAMETER = 'code';
const DEFAULT_HEADER = 'aeg-sas-key';
const DEFAULT_ROLE = 'AzureEventGridSecureWebhookSubscriber';

/** A query parameter of a request target; URLSearchParams never throws, whatever the target holds. */
function queryParameterOf(target: string, name: string): string | undefined {
  const query = target.indexOf('?');
  return query === -1 ? undefined : (new URLSearchParams(target.slice(query + 1)).get(name) ?? undefined);
}

class SharedKeyVerifier implements PushVerifier {
  private readonly digests: Buffer[];
  private readonly queryParameter: string;
  private readonly header: string;

  constructor(options: EventGridSharedKeyOptions) {
    const keys = listOf(options.keys);
    if (keys.length === 0 || keys.some((key) => key.length === 0)) throw new TypeError('Event Grid shared keys must be non-empty strings');
    this.digests = sharedKeyDigests(keys);
    this.queryParameter = options.queryParameter ?? DEFAULT_QUERY_PARAMETER;
    this.header = (options.header ?? DEFAULT_HEADER).toLowerCase();
  }

  async verify(request: PushRequest): Promise<PushVerdict> {
    const given = headerValue(request.headers, this.header) ?? queryParameterOf(request.url, this.queryParameter);
    if (given === undefined) return absent;
    return matchesSharedKey(given, this.digests) ? acceptedAsReceived(request) : rejected('the shared key does not match');
  }
}

function entraVerifier(options: EventGridEntraOptions, clock: Clock): BearerTokenVerifier {
  const tenant = encodeURIComponent(options.tenantId);
  const applicationIds = options.applicationIds === undefined ? undefined : new Set(options.applicationIds);
  const role = options.requiredRole === undefined ? DEFAULT_ROLE : options.requiredRole;
  const checkClaims = (claims: JWTPayload): string | undefined => {
    const applicationId = claims.appid ?? claims.azp;
    if (applicationIds !== undefined && (typeof applicationId !== 'string' || !applicationIds.has(applicationId))) {
      return `the token's application ${JSON.stringify(applicationId)} is not an accepted sender`;
    }
    if (role !== null && !(Array.isArray(claims.roles) && claims.roles.includes(role))) return `the token does not carry the ${role} role`;
    return undefined;
  };
  return new BearerTokenVerifier(
    {
      jwksUrl: new URL(options.jwksUrl ?? `https://login.microsoftonline.com/${tenant}/discovery/v2.0/keys`),
      issuers: options.issuers ?? [`https://sts.windows.net/${tenant}/`, `https://login.microsoftonline.com/${tenant}/v2.0`],
      audiences: listOf(options.audience),
      clockToleranceSeconds: options.clockToleranceSeconds ?? 60,
      checkClaims,
    },
    clock,
  );
}

/** The Event Grid verifiers configured: a request proven by either is accepted. */
export function eventGridVerifiers(options: EventGridVerificationOptions, clock: Clock): PushVerifier[] {
  const verifiers: PushVerifier[] = [];
  if (options.sharedKey !== undefined) verifiers.push(new SharedKeyVerifier(options.sharedKey));
  if (options.entra !== undefined) verifiers.push(entraVerifier(options.entra, clock));
  if (verifiers.length === 0) throw new TypeError('Event Grid verification needs sharedKey or entra');
  return verifiers;
}

import { ApiError } from '@herald/model';
import type { ExternalOAuthSettings } from './settings.js';

/** §5.7, §8: the endpoint must answer within 500 ms, network included. */
export const EXTERNAL_INTROSPECTION_TIMEOUT_MS = 500;

/** The RFC 7662 fields Herald reads. */
export interface ExternalIntrospection {
  active: boolean;
  scope?: string;
  /** Seconds since the epoch. */
  exp?: number;
  client_id?: string;
}

/** Calls one introspection endpoint; the seam tests and benchmarks may replace. */
export type IntrospectionCall = (settings: ExternalOAuthSettings, token: string, correlationId: string) => Promise<ExternalIntrospection>;

function causeCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : '';
}

const failed = (status: 502 | 504, message: string) => new ApiError(status, { code: 'ExternalOAuthFailed', message });

const timedOut = () => failed(504, `The external OAuth introspection endpoint did not answer within ${EXTERNAL_INTROSPECTION_TIMEOUT_MS} ms.`);

function parseAnswer(text: string): ExternalIntrospection {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw failed(502, 'The external OAuth introspection endpoint answered with invalid JSON.');
  }
  if (typeof body !== 'object' || body === null || typeof (body as { active?: unknown }).active !== 'boolean') {
    throw failed(502, "The external OAuth introspection endpoint answered without a boolean 'active'.");
  }
  const answer = body as Record<string, unknown>;
  const result: ExternalIntrospection = { active: answer.active === true };
  if (typeof answer.scope === 'string') result.scope = answer.scope;
  if (typeof answer.exp === 'number' && Number.isFinite(answer.exp)) result.exp = answer.exp;
  if (typeof answer.client_id === 'string') result.client_id = answer.client_id;
  return result;
}

/**
 * POSTs `token=…` (form) with the configured `Authorization` header and `X-Correlation-ID` (§5.7).
 * One attempt, no retry within the call. No answer in time, or no connection → 504; a non-2xx or
 * unparseable answer → 502 (§7). Messages never contain the token or the header.
 *
 * The limit covers the whole answer, body included, and is this call's own deadline: the exchange
 * races a timer that aborts the request and fails the call. The abort signal alone once let a body
 * that ended after 800 ms be read and honoured on a loaded CI host; the timer's rejection settles the
 * race before a later I/O phase can deliver that body.
 */
export const introspectExternally: IntrospectionCall = async (settings, token, correlationId) => {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(timedOut());
    }, EXTERNAL_INTROSPECTION_TIMEOUT_MS);
  });
  try {
    const answer = await Promise.race([exchange(settings, token, correlationId, abort.signal), deadline]);
    if (answer.status < 200 || answer.status > 299) {
      throw failed(502, `The external OAuth introspection endpoint answered with HTTP ${answer.status}.`);
    }
    return parseAnswer(answer.text);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (abort.signal.aborted) throw timedOut();
    // fetch rejects with a TypeError whose `cause` says why: undici's HTTP parser errors (code
    // HPE_*) mean the peer answered something that is not HTTP, i.e. an unparseable answer; all
    // others (refused, reset, DNS) mean no connection.
    if (causeCode(error).startsWith('HPE_')) {
      throw failed(502, 'The external OAuth introspection endpoint answered with something that is not HTTP.');
    }
    throw failed(504, 'The external OAuth introspection endpoint could not be reached.');
  } finally {
    clearTimeout(timer);
  }
};

/** The request and the whole answer (status and body text). */
async function exchange(settings: ExternalOAuthSettings, token: string, correlationId: string, signal: AbortSignal): Promise<{ status: number; text: string }> {
  const response = await fetch(settings.url, {
    method: 'POST',
    headers: {
      Authorization: settings.authorizationHeader,
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
      'X-Correlation-ID': correlationId,
    },
    body: new URLSearchParams({ token }).toString(),
    redirect: 'error',
    signal,
  });
  return { status: response.status, text: await response.text() };
}

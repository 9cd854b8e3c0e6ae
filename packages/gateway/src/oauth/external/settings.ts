import { looksSealed, type SecretBox } from '@herald/delivery';
import { invalidInput } from '@herald/model';
import type { Project } from '@herald/store';
import type { FastifyInstance } from 'fastify';
import type { ProjectActions } from '../../resources/projects/routes.js';
import { oauthError } from '../errors.js';

/**
 * §5.7 External OAuth (beta): an RFC 7662 introspection endpoint and the `Authorization` header
 * value Herald sends to it. This is the opened form: it exists only in memory, while Herald calls
 * the endpoint (external-validator.ts).
 */
export interface ExternalOAuthSettings {
  url: string;
  authorizationHeader: string;
}

/**
 * The setting as kept on the project document (`externalOAuth`). The header is sealed with the
 * secret box of destination secrets (HERALD_SECRET_KEY; without a key it is stored as given). Its
 * masked form is computed when it is set, so that responses can show it without opening the header.
 *
 * Documents written before sealing hold the header in plain text and no masked form: they are read
 * as they are (the box opens an unsealed value unchanged, and responses mask it as before), and the
 * next `setExternalOAuth` stores the header sealed.
 */
export interface StoredExternalOAuth {
  url: string;
  authorizationHeader: string;
  maskedAuthorizationHeader?: string;
}

export function externalOAuthOf(project: Project | undefined): StoredExternalOAuth | undefined {
  const value = project?.externalOAuth as Partial<StoredExternalOAuth> | undefined;
  if (typeof value?.url !== 'string' || typeof value.authorizationHeader !== 'string') return undefined;
  return { url: value.url, authorizationHeader: value.authorizationHeader };
}

function validUrl(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048) throw invalidInput("'externalOAuth.url' must be an http(s) URL.", { field: 'externalOAuth.url' });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidInput("'externalOAuth.url' must be an http(s) URL.", { field: 'externalOAuth.url' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalidInput("'externalOAuth.url' must be an http(s) URL.", { field: 'externalOAuth.url' });
  }
  // Credentials belong in authorizationHeader, which is sealed and masked; the URL is shown as is.
  if (url.username !== '' || url.password !== '') {
    throw invalidInput("'externalOAuth.url' must not contain credentials: send them in 'authorizationHeader'.", { field: 'externalOAuth.url' });
  }
  return value;
}

/**
 * A header value: printable, no CR/LF (header injection), and not of the form of a sealed secret
 * (it would be stored as if sealed and fail to open). Never echoed in errors: it is a secret.
 */
function validAuthorizationHeader(value: unknown): string {
  if (typeof value !== 'string' || !/^[\x20-\x7e]{1,4096}$/.test(value) || value.trim() === '') {
    throw invalidInput("'externalOAuth.authorizationHeader' must be a header value (printable ASCII, 1 to 4096 characters).", {
      field: 'externalOAuth.authorizationHeader',
    });
  }
  if (looksSealed(value)) {
    throw invalidInput('\'externalOAuth.authorizationHeader\' must not start with "enc:v1:" (the form of secrets Herald sealed).', {
      field: 'externalOAuth.authorizationHeader',
    });
  }
  return value;
}

/**
 * Project update action `setExternalOAuth`; no `externalOAuth` removes the setting. Needs
 * `manage_project`. The header is sealed with `secrets` before it reaches the document.
 */
export function externalOAuthActions(secrets: SecretBox): ProjectActions {
  return {
    setExternalOAuth(project, action, { ctx }) {
      if (ctx.auth?.scopes.has('manage_project') !== true) {
        throw oauthError('insufficient_scope', `setExternalOAuth needs the scope manage_project:${ctx.projectKey}.`);
      }
      const requested = action.externalOAuth;
      if (requested === undefined || requested === null) {
        delete project.externalOAuth;
        return [];
      }
      if (typeof requested !== 'object' || Array.isArray(requested)) {
        throw invalidInput("'externalOAuth' must be an object with url and authorizationHeader.", { field: 'externalOAuth' });
      }
      const draft = requested as Record<string, unknown>;
      const url = validUrl(draft.url);
      const header = validAuthorizationHeader(draft.authorizationHeader);
      const stored: StoredExternalOAuth = {
        url,
        authorizationHeader: secrets.seal(header),
        maskedAuthorizationHeader: maskAuthorizationHeader(header),
      };
      project.externalOAuth = stored;
      return [];
    },
  };
}

/** `Bearer abcdef…` → `Bearer abcd****`: enough to tell which credential is configured. */
export function maskAuthorizationHeader(header: string): string {
  const space = header.indexOf(' ');
  const scheme = space > 0 ? header.slice(0, space + 1) : '';
  const credential = space > 0 ? header.slice(space + 1) : header;
  return credential.length <= 12 ? `${scheme}****` : `${scheme}${credential.slice(0, 4)}****`;
}

/**
 * The authorization header is a secret: every view of a project that carries its `externalOAuth`
 * (API responses, the CLI) shows it partially hidden — the masked form stored with it; a legacy
 * plain-text header is masked here — and never the sealed value.
 */
export function withMaskedExternalOAuth<T extends object>(project: T): T {
  if (!('externalOAuth' in project)) return project;
  const stored = (project as { externalOAuth?: unknown }).externalOAuth as Partial<StoredExternalOAuth> | undefined;
  if (typeof stored?.authorizationHeader !== 'string') return project;
  const { maskedAuthorizationHeader, ...shown } = stored;
  const authorizationHeader = maskedAuthorizationHeader ?? maskAuthorizationHeader(stored.authorizationHeader);
  return { ...project, externalOAuth: { ...shown, authorizationHeader } };
}

/** A serialisation hook masks the header on every route that returns a project. */
export function installExternalOAuthMasking(app: FastifyInstance): void {
  app.addHook('preSerialization', async (_request, _reply, payload: unknown) =>
    typeof payload === 'object' && payload !== null ? withMaskedExternalOAuth(payload) : payload,
  );
}

/**
 * OAuth 2.0 (§5): API clients, access and refresh tokens, anonymous sessions, and customer
 * credentials. Secrets are never stored: client secrets and tokens only as hashes, customer
 * passwords only as scrypt hashes, and none of them inside a resource document (documents end up
 * in responses, messages, deliveries and query predicates).
 */
export const oauthSchema = `
CREATE TABLE api_clients (
  id               text        PRIMARY KEY,
  -- NULL only for the bootstrap client, whose scopes name every configured project.
  project_key      text,
  name             text        NOT NULL,
  -- Space-separated, as on the wire: 'manage_stores:p view_orders:p'.
  scope            text        NOT NULL,
  secret_hash      text        NOT NULL,
  created_at       timestamptz NOT NULL,
  last_used_at     timestamptz
);
CREATE INDEX api_clients_project_idx ON api_clients (project_key, created_at, id);

CREATE TABLE oauth_refresh_tokens (
  token_hash       text        PRIMARY KEY,
  client_id        text        NOT NULL,
  scope            text        NOT NULL,
  customer_id      text,
  anonymous_id     text,
  created_at       timestamptz NOT NULL,
  -- §5.4: a refresh token expires 6 months after its last use.
  last_used_at     timestamptz NOT NULL,
  -- Recency order for the §8 cap (least recently used go first); a sequence, not a timestamp,
  -- so that tokens used within the same millisecond still have a strict order.
  last_use_seq     bigint      NOT NULL
);
CREATE SEQUENCE oauth_refresh_token_use_seq;
CREATE INDEX oauth_refresh_tokens_lru_idx ON oauth_refresh_tokens (last_use_seq);
CREATE INDEX oauth_refresh_tokens_client_idx ON oauth_refresh_tokens (client_id);
CREATE INDEX oauth_refresh_tokens_customer_idx ON oauth_refresh_tokens (customer_id) WHERE customer_id IS NOT NULL;

-- The number of refresh tokens, kept in the transactions that insert and delete them, so that the
-- cap can be enforced without counting millions of rows on every issuance.
CREATE TABLE oauth_refresh_token_count (
  singleton        boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
  count            integer     NOT NULL
);
INSERT INTO oauth_refresh_token_count (singleton, count) VALUES (true, 0);

CREATE TABLE oauth_access_tokens (
  token_hash         text        PRIMARY KEY,
  client_id          text        NOT NULL,
  scope              text        NOT NULL,
  customer_id        text,
  anonymous_id       text,
  -- The refresh token this one was issued with or from: revoking that one revokes this one too.
  refresh_token_hash text,
  created_at         timestamptz NOT NULL,
  expires_at         timestamptz NOT NULL
);
CREATE INDEX oauth_access_tokens_expiry_idx ON oauth_access_tokens (expires_at);
CREATE INDEX oauth_access_tokens_client_idx ON oauth_access_tokens (client_id);
CREATE INDEX oauth_access_tokens_refresh_idx ON oauth_access_tokens (refresh_token_hash) WHERE refresh_token_hash IS NOT NULL;
CREATE INDEX oauth_access_tokens_customer_idx ON oauth_access_tokens (customer_id) WHERE customer_id IS NOT NULL;

-- §5.3: an anonymous id may be used for one session only.
CREATE TABLE anonymous_sessions (
  project_key      text        NOT NULL,
  anonymous_id     text        NOT NULL,
  client_id        text        NOT NULL,
  created_at       timestamptz NOT NULL,
  PRIMARY KEY (project_key, anonymous_id)
);

CREATE TABLE customer_passwords (
  project_key      text        NOT NULL,
  customer_id      text        NOT NULL,
  password_hash    text        NOT NULL,
  created_at       timestamptz NOT NULL,
  PRIMARY KEY (project_key, customer_id)
);

-- A customer's e-mail is unique per project (global customers) or per store (in-store customers),
-- case-insensitively. The service checks first for a helpful error; this index closes the race.
CREATE UNIQUE INDEX resources_customer_email_idx
  ON resources (project_key, (coalesce(doc->'stores'->0->>'key', '')), (lower(doc->>'email')))
  WHERE type_id = 'customer';
`;

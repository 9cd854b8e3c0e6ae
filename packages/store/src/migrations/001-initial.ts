/**
 * The initial schema. Resources of every type share one table of versioned JSON documents: the
 * document is the source of truth, and the columns beside it mirror what is indexed or locked on.
 * Ids are text, not uuid, so that a user's `where id = "x"` can never fail a cast.
 */
export const initialSchema = `
-- Projects are the tenants; their settings document is versioned like a resource.
CREATE TABLE projects (
  key              text        PRIMARY KEY,
  version          integer     NOT NULL,
  doc              jsonb       NOT NULL
);

CREATE TABLE resources (
  project_key      text        NOT NULL,
  type_id          text        NOT NULL,
  id               text        NOT NULL,
  key              text,
  version          integer     NOT NULL,
  created_at       timestamptz NOT NULL,
  last_modified_at timestamptz NOT NULL,
  -- last message sequence number of this resource; messages are numbered 1, 2, 3 … per resource
  message_seq      integer     NOT NULL DEFAULT 0,
  doc              jsonb       NOT NULL,
  PRIMARY KEY (project_key, type_id, id)
);
CREATE UNIQUE INDEX resources_key_idx ON resources (project_key, type_id, key) WHERE key IS NOT NULL;
CREATE INDEX resources_created_idx ON resources (project_key, type_id, created_at, id);
CREATE INDEX resources_modified_idx ON resources (project_key, type_id, last_modified_at, id);
CREATE INDEX resources_doc_idx ON resources USING gin (doc jsonb_path_ops);

-- The Messages API reads this table; deliveries read the outbox.
CREATE TABLE messages (
  project_key      text        NOT NULL,
  id               text        NOT NULL,
  key              text,
  version          integer     NOT NULL DEFAULT 1,
  resource_type_id text        NOT NULL,
  resource_id      text        NOT NULL,
  sequence_number  integer     NOT NULL,
  type             text        NOT NULL,
  created_at       timestamptz NOT NULL,
  last_modified_at timestamptz NOT NULL,
  doc              jsonb       NOT NULL,
  PRIMARY KEY (project_key, id)
);
CREATE UNIQUE INDEX messages_sequence_idx ON messages (project_key, resource_type_id, resource_id, sequence_number);
CREATE INDEX messages_created_idx ON messages (project_key, created_at, id);

-- Transactional outbox: every write appends here in its own transaction; the delivery router
-- claims rows with FOR UPDATE SKIP LOCKED and deletes them in the transaction that creates
-- their deliveries.
CREATE TABLE outbox (
  seq              bigserial   PRIMARY KEY,
  project_key      text        NOT NULL,
  event_id         text        NOT NULL,
  kind             text        NOT NULL CHECK (kind IN ('message', 'change')),
  resource_type_id text        NOT NULL,
  message_type     text,
  payload          jsonb       NOT NULL,
  committed_at     timestamptz NOT NULL DEFAULT now()
);
`;

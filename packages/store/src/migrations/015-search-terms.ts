/**
 * Search terms of documents (issue 28: product projection search "over PostgreSQL indexes"): the
 * scalar values a type declares searchable (documents/search-terms.ts), one row per value, written
 * in the statement or transaction that writes the document. A row belongs to a `part` of the
 * document (a product's `current` or `staged` data) and a `unit` within it (0: the document
 * itself; else e.g. a variant's id); a row with the empty path marks that a unit exists. `kind`
 * is the value's JSON type ('s', 'n', 'b'; 'u' for the marker); `str` its text (a number's or
 * boolean's as JavaScript spells it), `num` its number (also a text's that spells one), so that
 * both `"42"` and `42` find each other as the search filters define.
 *
 * Indexes: by path and text (on a 200-character prefix: a btree entry has a size limit, and
 * descriptions can be long; the queries compare the prefix and then the whole text), by path and
 * number, and by resource (a write replaces its rows; a unit's values are probed by resource).
 *
 * Rows are not derived here for documents stored before this migration (the derivation is the
 * gateway's code): `search_term_builds` records, per project and type, the derivation version
 * whose rows are complete; the first search of a project without it derives them (lazily, once).
 */
export const searchTerms = `
CREATE TABLE search_terms (
  project_key text COLLATE "C" NOT NULL,
  type_id     text COLLATE "C" NOT NULL,
  resource_id text COLLATE "C" NOT NULL,
  part        text COLLATE "C" NOT NULL,
  unit        integer NOT NULL,
  path        text COLLATE "C" NOT NULL,
  kind        text COLLATE "C" NOT NULL,
  str         text COLLATE "C",
  num         double precision
);
CREATE INDEX search_terms_text_idx ON search_terms (project_key, type_id, part, path, left(str, 200));
CREATE INDEX search_terms_number_idx ON search_terms (project_key, type_id, part, path, num) WHERE num IS NOT NULL;
CREATE INDEX search_terms_resource_idx ON search_terms (project_key, type_id, resource_id, part, unit, path);

CREATE TABLE search_term_builds (
  project_key text COLLATE "C" NOT NULL,
  type_id     text COLLATE "C" NOT NULL,
  version     text NOT NULL,
  PRIMARY KEY (project_key, type_id)
);
`;

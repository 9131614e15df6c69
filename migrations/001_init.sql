-- designs holds the current state of each design. doc is the design-json document (designer.MarshalJSON)
-- as of revision. sealed_view is the view token sealed with AES-256-GCM under a key derived from the
-- edit token (nonce || ciphertext); the plaintext view token is never stored.
CREATE TABLE designs (
    id          TEXT    NOT NULL PRIMARY KEY,
    name        TEXT    NOT NULL,
    revision    INTEGER NOT NULL CHECK (revision >= 1),
    doc         TEXT    NOT NULL,
    sealed_view BLOB    NOT NULL,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
) STRICT;

-- revisions is the history of each design, one row per accepted change. Revision 1 holds the full
-- created document in change (kind 'create'); every later row holds the change as written by
-- designer.MarshalChange, so any revision can be rebuilt by replaying from revision 1.
-- paths is a JSON array of strings.
CREATE TABLE revisions (
    design_id TEXT    NOT NULL REFERENCES designs (id) ON DELETE CASCADE,
    revision  INTEGER NOT NULL CHECK (revision >= 1),
    author    TEXT    NOT NULL,
    at        TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    summary   TEXT    NOT NULL,
    change    TEXT    NOT NULL,
    paths     TEXT    NOT NULL,
    PRIMARY KEY (design_id, revision)
) STRICT, WITHOUT ROWID;

-- tokens holds only SHA-256 hashes of the capability tokens, never the tokens themselves.
CREATE TABLE tokens (
    hash       BLOB NOT NULL PRIMARY KEY CHECK (length(hash) = 32),
    design_id  TEXT NOT NULL REFERENCES designs (id) ON DELETE CASCADE,
    access     TEXT NOT NULL CHECK (access IN ('edit', 'view')),
    created_at TEXT NOT NULL,
    revoked_at TEXT
) STRICT;

CREATE INDEX tokens_by_design ON tokens (design_id);

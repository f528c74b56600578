-- Bot tokens of riichi.dev-dialect bots (issue 37, kind 'riichilab'): one per bot of a
-- league, shown once and stored only as its sha256 (as authors' tokens); a new one
-- replaces it.
CREATE TABLE bot_tokens (
    t BIGINT NOT NULL DEFAULT 1,
    name TEXT NOT NULL,
    token_sha256 TEXT NOT NULL UNIQUE,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (t, name)
);

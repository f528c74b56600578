-- Submissions stored in pieces of at most 4 MiB (issue 27): an upload up to the cap
-- (--max-submission-mb, 1,000 MiB by default) is written from its spooled file without
-- holding it in memory, and no value nears SQLite's 1,000,000,000-byte limit. A submission
-- stored this way has an empty `bytes` in `submissions`; older rows keep their bytes there.
CREATE TABLE submission_chunks (
    sha256 TEXT NOT NULL,
    idx INTEGER NOT NULL,
    bytes BLOB NOT NULL,
    PRIMARY KEY (sha256, idx)
);

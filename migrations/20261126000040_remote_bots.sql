-- Remote bots on a grading server (issue 29): kind is 'zip' (an uploaded bot.py zip, played
-- in a container) or 'remote' (played by its author's `mjai-sim connect` over a WebSocket;
-- no zip, its sha256 is that of the text `remote:NAME`).
ALTER TABLE bot_versions ADD COLUMN kind TEXT NOT NULL DEFAULT 'zip';

-- perfsift schema, version 4: mail.  A message of an mbox (or a single
-- .eml) is its own import: imports.message is its 1-based number in the
-- file (NULL: not mail), and what its headers said (Message-ID, Subject,
-- From, Date, In-Reply-To, References) is kept in import_meta, so that a
-- later report can answer in-thread.
ALTER TABLE imports ADD COLUMN message INTEGER;
CREATE TABLE import_meta (
	import_id	INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	key		TEXT NOT NULL,		-- message_id, subject, from, ...
	value		TEXT NOT NULL,
	PRIMARY KEY (import_id, key)
) WITHOUT ROWID;

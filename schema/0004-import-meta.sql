-- perfsift schema, version 4: mail.  A message of an mbox (or a single
-- .eml) is its own import: imports.message is its 1-based number in the
-- file (NULL: not mail), and what its headers said (Message-ID, Subject,
-- From, Date, In-Reply-To, References) is kept in import_meta, so that a
-- later report can answer in-thread.  A table's printed change is kept
-- with the aggregate of each compared column (change_source, against the
-- column change_base: its commit or label), so that a reprint gives the
-- source's figure, not one recomputed from rounded values.
ALTER TABLE imports ADD COLUMN message INTEGER;
CREATE TABLE import_meta (
	import_id	INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	key		TEXT NOT NULL,		-- message_id, subject, from, ...
	value		TEXT NOT NULL,
	PRIMARY KEY (import_id, key)
) WITHOUT ROWID;
ALTER TABLE aggregates ADD COLUMN change_source TEXT;	-- as printed: "-6.0%", "-0.0"
ALTER TABLE aggregates ADD COLUMN change_base TEXT;

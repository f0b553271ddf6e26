-- perfsift schema, version 9: what a text import found and what it left.
-- A table pasted in mail or kept as text is read row by row, and a row
-- that cannot be read costs only itself (SPEC §5, import): each table an
-- import found is a row of import_tables (where it starts, what kind,
-- how many columns, rows read and skipped), and each row skipped is a
-- row of import_skips with its line, the reason and the text as read,
-- so that `perfsift show` can say what did not come in.
CREATE TABLE import_tables (
	import_id	INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	seq		INTEGER NOT NULL,		-- 1-based, in input order
	line		INTEGER,			-- its first line
	kind		TEXT NOT NULL,			-- lkp, lkp-fail, mmtests, ...
	title		TEXT,				-- its benchmark or heading
	columns		INTEGER NOT NULL,		-- variants it compares
	rows_read	INTEGER NOT NULL,
	rows_skipped	INTEGER NOT NULL,
	PRIMARY KEY (import_id, seq)
) WITHOUT ROWID;
CREATE TABLE import_skips (
	import_id	INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	seq		INTEGER NOT NULL,		-- 1-based, in input order
	line		INTEGER NOT NULL,
	table_seq	INTEGER,			-- NULL: outside a table
	reason		TEXT NOT NULL,
	text		TEXT NOT NULL,			-- the row as read
	PRIMARY KEY (import_id, seq)
) WITHOUT ROWID;

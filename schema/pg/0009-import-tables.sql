-- perfsift schema, version 9, on PostgreSQL: the tables a text import
-- found and the rows it skipped (schema/0009-import-tables.sql says why).
CREATE TABLE import_tables (
	import_id	bigint NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	seq		integer NOT NULL,
	line		bigint,
	kind		text COLLATE "C" NOT NULL,
	title		text COLLATE "C",
	columns		integer NOT NULL,
	rows_read	bigint NOT NULL,
	rows_skipped	bigint NOT NULL,
	PRIMARY KEY (import_id, seq)
);
CREATE TABLE import_skips (
	import_id	bigint NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	seq		integer NOT NULL,
	line		bigint NOT NULL,
	table_seq	integer,
	reason		text COLLATE "C" NOT NULL,
	text		text COLLATE "C" NOT NULL,
	PRIMARY KEY (import_id, seq)
);
UPDATE perfsift_meta SET schema_version = 9;

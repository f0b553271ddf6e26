-- perfsift schema, version 7, on PostgreSQL: the values of each run in
-- one row (schema/0007-run-values.sql says why and the blob's layout).
-- A server database migrated to this step gets the table empty and the
-- migration code fills it from samples, as lib/store/values.c does for a
-- file.
CREATE TABLE run_values (
	run_id		bigint PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
	n		bigint NOT NULL,
	data		bytea NOT NULL
);
UPDATE perfsift_meta SET schema_version = 7;

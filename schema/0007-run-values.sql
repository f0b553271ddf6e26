-- perfsift schema, version 7: the values of each run in one row.
-- compare reads every sample of a run; read row by row, 200,000 samples
-- cost more than the whole comparison may take (docs/performance.md).
-- run_values keeps a copy of a run's samples packed in one blob, written
-- by the import that wrote the samples, in the same transaction (and, for
-- a database migrated to this version, by the migration:
-- lib/store/values.c); the samples table stays the one that answers by
-- metric.
--   data: n entries of 12 bytes, ascending metric_id: the metric id
--   (unsigned 32-bit little-endian; its top bit set when the value was
--   derived from a series) and the value (IEEE double, little-endian).
CREATE TABLE run_values (
	run_id		INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
	n		INTEGER NOT NULL,
	data		BLOB NOT NULL
);

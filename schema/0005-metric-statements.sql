-- perfsift schema, version 5: what an importer states about a metric,
-- and the order a source reported its metrics in.
--
-- * metrics.direction: 1 higher is better, -1 lower, as the importer
--   states it (MMTests' data type of each operation); NULL: not stated,
--   and the catalog decides.  The user's overrides (metric_directions)
--   still win over both.
-- * metrics.summary: how MMTests summarises the metric, for compare
--   --format mmtests: "Multiops", "Singleops:LABEL" (the best value),
--   "Singleops-mean:LABEL" (the mean), "Monitor:LABEL" (a table of its
--   own without percentages: Duration, Ops); NULL: not stated.
-- * import_metrics: the position of each metric in the order its import
--   reported it (MMTests prints operations in the order its extractor
--   produced them, not by name).
ALTER TABLE metrics ADD COLUMN direction INTEGER;
ALTER TABLE metrics ADD COLUMN summary TEXT;
CREATE TABLE import_metrics (
	import_id	INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	metric_id	INTEGER NOT NULL REFERENCES metrics(id),
	position	INTEGER NOT NULL,
	PRIMARY KEY (import_id, metric_id)
) WITHOUT ROWID;

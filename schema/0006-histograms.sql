-- perfsift schema, version 6: histograms.  fio's json+ output keeps the
-- latency histogram of each direction (its bins: a latency and how many
-- I/Os fell in that bin); a run's histogram of a metric is kept whole, so
-- that the runs of a variant merge exactly (bins summed) and any
-- percentile can be computed again from the merge, as fio computes them.
CREATE TABLE histograms (
	run_id		INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	metric_id	INTEGER NOT NULL REFERENCES metrics(id),
	n		INTEGER NOT NULL,		-- bins
	-- n (value, count) pairs, each two IEEE doubles, little-endian,
	-- values ascending
	bins		BLOB NOT NULL,
	source_id	INTEGER,
	line		INTEGER,
	PRIMARY KEY (run_id, metric_id)
) WITHOUT ROWID;

-- perfsift schema, version 1.  Applied by lib/db.c in one transaction;
-- PRAGMA user_version records the last migration applied.

-- One source file.  sha256 is of the content (after gunzip), so the same
-- data imported twice, compressed or not, is recognised.
CREATE TABLE imports (
	id		INTEGER PRIMARY KEY,
	path		TEXT NOT NULL,
	sha256		TEXT NOT NULL UNIQUE,
	format		TEXT NOT NULL,
	size		INTEGER NOT NULL,	-- content bytes
	file_size	INTEGER,		-- bytes on disk; NULL for stdin
	imported_at	INTEGER NOT NULL	-- unix seconds
);

-- One execution of a benchmark.  Empty string means "not known" for the
-- text dimensions (so that they group and index plainly); commit_sha and
-- label may be NULL.
CREATE TABLE runs (
	id		INTEGER PRIMARY KEY,
	import_id	INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	suite		TEXT NOT NULL,
	testcase	TEXT NOT NULL DEFAULT '',
	params		TEXT NOT NULL DEFAULT '',	-- canonical "k=v,k=v", keys sorted
	machine		TEXT NOT NULL DEFAULT '',
	kernel		TEXT NOT NULL DEFAULT '',
	commit_sha	TEXT,
	label		TEXT,
	iteration	INTEGER,
	start_time	INTEGER,			-- unix seconds
	line		INTEGER				-- where in the file it starts
);
CREATE INDEX runs_label ON runs(label, testcase);
CREATE INDEX runs_kernel ON runs(kernel, testcase);
CREATE INDEX runs_commit ON runs(commit_sha, testcase);
CREATE INDEX runs_testcase ON runs(testcase, params, machine);
CREATE INDEX runs_import ON runs(import_id);

-- Parameters of a run, one row each (for --by param:NAME and filters).
CREATE TABLE run_params (
	run_id		INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	key		TEXT NOT NULL,
	value		TEXT NOT NULL,
	PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE INDEX run_params_key ON run_params(key, value);

-- Metric names ("fio.read_bw_MBps").  The direction is not stored here:
-- it comes from the built-in catalog and the user's overrides at query
-- time, so that an override applies to data already imported.
CREATE TABLE metrics (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,
	unit		TEXT
);

-- One value of one metric in one run.  Clustered by run, for import speed
-- and for loading whole variants; no index on metric_id (it would slow
-- every insert; per-metric counts group one pass instead).
CREATE TABLE samples (
	run_id		INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	metric_id	INTEGER NOT NULL REFERENCES metrics(id),
	value		REAL NOT NULL,
	line		INTEGER,
	PRIMARY KEY (run_id, metric_id)
) WITHOUT ROWID;

-- A summary kept as the source printed it (lkp/MMTests compare tables,
-- robot emails, CSV rows with a "stat" column).  Never turned into samples.
CREATE TABLE aggregates (
	id		INTEGER PRIMARY KEY,
	import_id	INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	suite		TEXT NOT NULL,
	testcase	TEXT NOT NULL DEFAULT '',
	params		TEXT NOT NULL DEFAULT '',
	machine		TEXT NOT NULL DEFAULT '',
	kernel		TEXT NOT NULL DEFAULT '',
	commit_sha	TEXT,
	label		TEXT,
	metric_id	INTEGER NOT NULL REFERENCES metrics(id),
	stat		TEXT NOT NULL,			-- "mean", "Amean", "Hmean", ...
	value		REAL NOT NULL,
	stddev		REAL,				-- absolute, see stddev_kind
	stddev_kind	TEXT,				-- sample | population | relative
	stddev_source	REAL,				-- as printed (e.g. 18 for "± 18%")
	n		INTEGER,			-- NULL: not known
	marker		TEXT,				-- the source's significance marker
	line		INTEGER
);
CREATE INDEX aggregates_label ON aggregates(label, testcase);
CREATE INDEX aggregates_kernel ON aggregates(kernel, testcase);
CREATE INDEX aggregates_commit ON aggregates(commit_sha, testcase);

-- Time-stamped values (monitor samples, fio logs) of a run.
CREATE TABLE series (
	run_id		INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	metric_id	INTEGER NOT NULL REFERENCES metrics(id),
	t		REAL NOT NULL,			-- seconds
	value		REAL NOT NULL,
	line		INTEGER
);
CREATE INDEX series_run ON series(run_id, metric_id, t);

-- Commit order, recorded from a git repository.
CREATE TABLE commits (
	sha		TEXT PRIMARY KEY,
	position	INTEGER NOT NULL,		-- 0 = oldest
	parents		TEXT NOT NULL DEFAULT '',	-- space-separated shas
	subject		TEXT,
	date		INTEGER				-- unix seconds
);
CREATE INDEX commits_position ON commits(position);

-- The user's metric direction overrides: a glob on the metric name.
CREATE TABLE metric_directions (
	pattern		TEXT PRIMARY KEY,
	direction	INTEGER NOT NULL		-- 1 higher, -1 lower, 0 unknown
);

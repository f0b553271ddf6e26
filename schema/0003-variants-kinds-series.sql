-- perfsift schema, version 3: variants have identity, metrics a kind,
-- series are packed, and directory results keep their members.
--
-- * variants: one row per (label, kernel, commit, machine, testcase,
--   params); runs and aggregates point to it, so that every query selects
--   a variant in one place.  '' means "not known" in every column (so
--   that the UNIQUE constraint holds: NULLs would all differ).
-- * metrics.kind: 1 counter (last - first), 2 gauge (mean), 3 exact
--   (deterministic: no test needed); NULL not stated.
-- * series: points packed into chunks of up to 256 (t, value) pairs, one
--   B-tree row per chunk instead of two index entries per point.  No
--   importer wrote series before this version, so the old table is
--   dropped, not converted.
-- * sources: the members of a directory result (and the files nested in
--   it); rows name theirs in source_id (NULL: the import's own path).
-- * samples.derived: 1 for a value reduced from the run's series.

CREATE TABLE variants (
	id		INTEGER PRIMARY KEY,
	label		TEXT NOT NULL DEFAULT '',
	kernel		TEXT NOT NULL DEFAULT '',
	commit_sha	TEXT NOT NULL DEFAULT '',
	machine		TEXT NOT NULL DEFAULT '',
	testcase	TEXT NOT NULL DEFAULT '',
	params		TEXT NOT NULL DEFAULT '',	-- canonical "k=v,k=v"
	UNIQUE (label, kernel, commit_sha, machine, testcase, params)
);
CREATE INDEX variants_kernel ON variants(kernel);
CREATE INDEX variants_commit ON variants(commit_sha);
CREATE INDEX variants_machine ON variants(machine);
CREATE INDEX variants_testcase ON variants(testcase);

CREATE TABLE variant_params (
	variant_id	INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
	key		TEXT NOT NULL,
	value		TEXT NOT NULL,
	PRIMARY KEY (variant_id, key)
) WITHOUT ROWID;
CREATE INDEX variant_params_key ON variant_params(key, value);

INSERT OR IGNORE INTO variants(label, kernel, commit_sha, machine, testcase,
			       params)
	SELECT coalesce(label, ''), kernel, coalesce(commit_sha, ''), machine,
	       testcase, params FROM runs
	UNION ALL
	SELECT coalesce(label, ''), kernel, coalesce(commit_sha, ''), machine,
	       testcase, params FROM aggregates
	ORDER BY 1, 2, 3, 4, 5, 6;

-- the params of each variant, split from the canonical text
WITH RECURSIVE split(id, rest, item) AS (
	SELECT id, params || ',', NULL FROM variants WHERE params != ''
	UNION ALL
	SELECT id, substr(rest, instr(rest, ',') + 1),
	       substr(rest, 1, instr(rest, ',') - 1)
	FROM split WHERE rest != ''
)
INSERT OR REPLACE INTO variant_params(variant_id, key, value)
	SELECT id, substr(item, 1, instr(item, '=') - 1),
	       substr(item, instr(item, '=') + 1)
	FROM split WHERE item IS NOT NULL AND instr(item, '=') > 1;

CREATE TABLE sources (
	id		INTEGER PRIMARY KEY,
	import_id	INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	path		TEXT NOT NULL			-- relative to the import
);
CREATE INDEX sources_import ON sources(import_id);

ALTER TABLE imports ADD COLUMN is_dir INTEGER NOT NULL DEFAULT 0;
CREATE INDEX imports_path ON imports(path);

CREATE TABLE runs_v3 (
	id		INTEGER PRIMARY KEY,
	import_id	INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	variant_id	INTEGER NOT NULL REFERENCES variants(id),
	suite		TEXT NOT NULL,
	iteration	INTEGER,
	start_time	INTEGER,			-- unix seconds
	source_id	INTEGER,			-- NULL: the import's path
	line		INTEGER				-- where in the file it starts
);
INSERT INTO runs_v3(id, import_id, variant_id, suite, iteration, start_time,
		    line)
	SELECT r.id, r.import_id, v.id, r.suite, r.iteration, r.start_time,
	       r.line
	FROM runs r JOIN variants v ON v.label = coalesce(r.label, '') AND
		v.kernel = r.kernel AND v.commit_sha = coalesce(r.commit_sha, '')
		AND v.machine = r.machine AND v.testcase = r.testcase AND
		v.params = r.params;
DROP TABLE run_params;
DROP TABLE runs;
ALTER TABLE runs_v3 RENAME TO runs;
CREATE INDEX runs_variant ON runs(variant_id, iteration);
CREATE INDEX runs_import ON runs(import_id);

CREATE TABLE aggregates_v3 (
	id		INTEGER PRIMARY KEY,
	import_id	INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	variant_id	INTEGER NOT NULL REFERENCES variants(id),
	suite		TEXT NOT NULL,
	metric_id	INTEGER NOT NULL REFERENCES metrics(id),
	stat		TEXT NOT NULL,			-- "mean", "Amean", "Hmean", ...
	value		REAL NOT NULL,
	stddev		REAL,				-- absolute, see stddev_kind
	stddev_kind	TEXT,				-- sample | population | relative
	stddev_source	REAL,				-- as printed (e.g. 18 for "± 18%")
	n		INTEGER,			-- NULL: not known
	marker		TEXT,				-- the source's significance marker
	source_id	INTEGER,
	line		INTEGER
);
INSERT INTO aggregates_v3(id, import_id, variant_id, suite, metric_id, stat,
			  value, stddev, stddev_kind, stddev_source, n, marker,
			  line)
	SELECT a.id, a.import_id, v.id, a.suite, a.metric_id, a.stat, a.value,
	       a.stddev, a.stddev_kind, a.stddev_source, a.n, a.marker, a.line
	FROM aggregates a JOIN variants v ON v.label = coalesce(a.label, '')
		AND v.kernel = a.kernel AND
		v.commit_sha = coalesce(a.commit_sha, '') AND
		v.machine = a.machine AND v.testcase = a.testcase AND
		v.params = a.params;
DROP TABLE aggregates;
ALTER TABLE aggregates_v3 RENAME TO aggregates;
CREATE INDEX aggregates_variant ON aggregates(variant_id);
CREATE INDEX aggregates_import ON aggregates(import_id);

ALTER TABLE metrics ADD COLUMN kind INTEGER;
ALTER TABLE samples ADD COLUMN derived INTEGER;
ALTER TABLE samples ADD COLUMN source_id INTEGER;

DROP TABLE series;
CREATE TABLE series (
	run_id		INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	metric_id	INTEGER NOT NULL REFERENCES metrics(id),
	chunk		INTEGER NOT NULL,		-- 0, 1, ... in time order
	n		INTEGER NOT NULL,		-- points in this chunk
	-- n (t, value) pairs, each two IEEE doubles, little-endian; t in
	-- seconds (epoch seconds for monitors, fractional allowed)
	points		BLOB NOT NULL,
	source_id	INTEGER,
	line		INTEGER,			-- line of the first point
	PRIMARY KEY (run_id, metric_id, chunk)
) WITHOUT ROWID;

-- Runs with their variant's columns, for people (and tests) writing SQL.
CREATE VIEW run_variants AS
	SELECT r.id, r.import_id, r.variant_id, r.suite, r.iteration,
	       r.start_time, r.source_id, r.line, nullif(v.label, '') AS label,
	       v.kernel, nullif(v.commit_sha, '') AS commit_sha, v.machine,
	       v.testcase, v.params
	FROM runs r JOIN variants v ON v.id = r.variant_id;

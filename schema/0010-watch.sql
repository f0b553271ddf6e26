-- perfsift schema, version 10: what `perfsift watch` reported last.
-- watch reports the change points that runs imported since its last call
-- created or moved; to know which, it keeps, per series (a metric's
-- history at one testcase, params and machine), how many runs it had and
-- the change points it reported then.  A watch replaces a series' rows
-- in one transaction, so that a watch cut off mid-way leaves the last
-- complete report's rows and the next watch reports again what this one
-- could not finish (docs/changepoints.md).
CREATE TABLE watch_series (
	metric		TEXT NOT NULL,
	testcase	TEXT NOT NULL,
	params		TEXT NOT NULL,
	machine		TEXT NOT NULL,
	runs		INTEGER NOT NULL,		-- runs in the series then
	PRIMARY KEY (metric, testcase, params, machine)
) WITHOUT ROWID;
CREATE TABLE watch_points (
	metric		TEXT NOT NULL,
	testcase	TEXT NOT NULL,
	params		TEXT NOT NULL,
	machine		TEXT NOT NULL,
	seq		INTEGER NOT NULL,		-- 1-based, in series order
	commit_sha	TEXT NOT NULL,			-- the first commit after it
	idx		INTEGER NOT NULL,		-- its run's index in the series
	p		REAL,				-- NULL: not a finite number
	PRIMARY KEY (metric, testcase, params, machine, seq)
) WITHOUT ROWID;

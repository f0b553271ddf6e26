-- perfsift schema, version 2: an index that serves the "next iteration
-- of this variant" lookup of every new run, which otherwise scanned all
-- earlier runs of the label (quadratic in runs per variant).
CREATE INDEX runs_variant_iteration ON runs(label, kernel, commit_sha,
	testcase, params, machine, iteration);

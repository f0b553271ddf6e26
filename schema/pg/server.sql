-- perfsift's server schema: what only the server has, with no SQLite
-- counterpart.  scripts/pg-schema.c puts it at the head of the base step
-- (schema/README.md); the tables come from the SQLite migrations.

-- Which application and which schema version this database holds: one
-- row.  The SQLite file keeps the same two numbers in its header (PRAGMA
-- application_id, PRAGMA user_version); a database without this table, or
-- with another application_id, is not perfsift's and is not touched, and a
-- schema_version above the last migration this perfsift knows is refused.
CREATE TABLE perfsift_meta (
	one		boolean PRIMARY KEY DEFAULT true CHECK (one),
	application_id	integer NOT NULL,	-- 0x50534654, "PSFT"
	schema_version	integer NOT NULL
);
-- the version: the last line of every step sets it, this one's too
INSERT INTO perfsift_meta(application_id, schema_version)
	VALUES (1347634772, 0);

-- SQLite's glob(pattern, string), which the queries use (`glob(?, name)`),
-- the same on both backends: * any run of characters, ? one character,
-- [...] one of a set ([^...] none of it, a-z a range, ] first a member),
-- case-sensitive, the whole string.  The pattern becomes an anchored
-- regular expression; every other character is matched as itself.
CREATE FUNCTION perfsift_glob_regex(pattern text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	re text := '^';
	i int := 1;
	n int := length(pattern);
	c text;
	j int;
BEGIN
	WHILE i <= n LOOP
		c := substr(pattern, i, 1);
		IF c = '*' THEN
			re := re || '.*';
		ELSIF c = '?' THEN
			re := re || '.';
		ELSIF c = '[' THEN
			-- the closing bracket: ] right after [ or [^ is a member
			j := i + 1;
			IF j <= n AND substr(pattern, j, 1) = '^' THEN
				j := j + 1;
			END IF;
			IF j <= n AND substr(pattern, j, 1) = ']' THEN
				j := j + 1;
			END IF;
			WHILE j <= n AND substr(pattern, j, 1) <> ']' LOOP
				j := j + 1;
			END LOOP;
			IF j > n THEN
				RETURN '^(?!)';	-- unclosed: SQLite matches nothing
			END IF;
			re := re || '[' || replace(substr(pattern, i + 1, j - i - 1),
						   '\', '\\') || ']';
			i := j;
		ELSE
			re := re || regexp_replace(c, '([\\.^$|()+{}])', '\\\1');
		END IF;
		i := i + 1;
	END LOOP;
	RETURN re || '$';
END
$$;
CREATE FUNCTION glob(pattern text, string text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS
$$ SELECT string ~ perfsift_glob_regex(pattern) $$;

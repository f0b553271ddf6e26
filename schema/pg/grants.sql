-- perfsift on PostgreSQL: what the two kinds of users may do.  Run by the
-- owner of the tables (who applied the schema and runs the migrations),
-- after every migration, with psql naming the two roles:
--
--   psql -v reader=ROLE -v writer=ROLE -f schema/pg/grants.sql
--
-- The roles must exist (CREATE ROLE ... LOGIN, with a password or a
-- certificate: never one on a command line).
--
-- reader: every query command (runs, metrics, show, compare, regressions,
-- trend, changepoints, bisect, plot, report): SELECT, nothing else.
-- writer: import, commits import, push, the direction overrides: SELECT,
-- INSERT, UPDATE and DELETE on the tables, and no DDL, so that it cannot
-- drop or alter them (the identity columns take their next id without any
-- grant on their sequences).
GRANT USAGE ON SCHEMA public TO :"reader", :"writer";
GRANT SELECT ON ALL TABLES IN SCHEMA public TO :"reader";
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public
	TO :"writer";
-- the version row is the owner's: only a migration changes it
REVOKE INSERT, UPDATE, DELETE ON perfsift_meta FROM :"writer";

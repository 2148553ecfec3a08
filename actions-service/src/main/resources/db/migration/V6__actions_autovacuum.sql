-- E3 walks a page's offset in the index actions_list alone (an index-only scan) and reads only the
-- page's rows from the table; that walk visits the table for every entry whose heap page is not
-- marked all-visible, which only a vacuum marks. PostgreSQL's default vacuums a table after inserts
-- of 20 % of its rows (and updates of 20 %), so up to a fifth of a large project's entries cost a
-- heap visit each: the last page of 10,000 actions made 2,391 heap fetches, 0.4-0.6 ms more a page
-- (bench/GatewayOverhead.md, session 50). Vacuum this table after 2 % instead.
ALTER TABLE actions SET (autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_vacuum_scale_factor = 0.02,
                         autovacuum_analyze_scale_factor = 0.05);

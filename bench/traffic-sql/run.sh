#!/usr/bin/env bash
# Compares the database work of one traffic.hits batch (5,000 hits as TrafficBench makes them,
# about 25,000 session scopes, 700,000 session rows from 150,000 earlier hits) before and after
# the 2026-11-26 change: the old single statement (four-column session key, lookup joined in SQL)
# against the new lookup + write (128-bit key, moves computed in memory). Each statement runs under
# EXPLAIN ANALYZE inside a transaction that is rolled back, three times, alternating.
#
#   PSQL="psql -h <socket dir> -p <port> -U postgres" bench/traffic-sql/run.sh
#
# Needs an empty PostgreSQL 17 database (run it as a non-root user); see bench/TrafficBench.md.
set -euo pipefail
cd "$(dirname "$0")"
M=../../traffic-service/src/main/resources/db/migration
P="${PSQL:?set PSQL to a psql command line} -v ON_ERROR_STOP=1 -q"
$P -c "DROP SCHEMA IF EXISTS old CASCADE; DROP SCHEMA IF EXISTS new CASCADE; CREATE SCHEMA old; CREATE SCHEMA new;
       DROP TABLE IF EXISTS public.projects, public.hist, public.b_s, public.b_c, public.b_new, public.b_c2;"
$P -c "SET search_path = old; $(cat $M/V2__traffic.sql)"
$P -c "SET search_path = new; $(cat $M/V2__traffic.sql)"
$P -c "SET search_path = new; $(cat $M/V3__traffic_session_keys.sql)"
$P -f gen.sql
# wall time (EXPLAIN ANALYZE) and the CPU time of the server process that ran it (utime + stime from
# /proc, in clock ticks of 10 ms): the CPU time barely depends on what else runs on the machine
for round in 1 2 3; do
  uptime
  for v in old new; do
    echo "== $v"
    (echo "SELECT pg_backend_pid() AS pid \\gset"; echo "\\setenv PGPID :pid"
     echo "\\! awk '{print \"cpu before: \" \$14 + \$15}' /proc/\$PGPID/stat"
     echo "BEGIN;"; cat $v.sql; echo "ROLLBACK;"
     echo "\\! awk '{print \"cpu after: \" \$14 + \$15}' /proc/\$PGPID/stat") | $P | grep -E "Execution Time|cpu "
  done
done

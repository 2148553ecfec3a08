#!/usr/bin/env bash
# traffic-service benchmark: ingestion rate of traffic.hits into the rollups and "published ->
# visible in E4" of probe hits at that rate; the drain rate of a backlog published while the service's
# consumers are paused (-Ddrain.hits=N in BENCH_JAVA_OPTS, by default as many as the ingestion phase;
# 0: none): its capacity without the sensors' producer on the same cores; then E4 latency over the rollups of 10 million hits on
# 50,000 paths over 90 days (no filter, domain, domain + pathPrefix). Standalone: an embedded Kafka
# broker and PostgreSQL and the service in one JVM, as in the tests. Results: bench/TrafficBench.md.
#
#   bench/TrafficBench.sh [rate=20000] [seconds=30] [projects=12] [samples=500] [paths=50000] [hits=10000000]
#
# The program is traffic-service/src/test/java/dev/visibility/traffic/bench/TrafficBench.java.
set -euo pipefail
cd "$(dirname "$0")/.."
offline=${MAVEN_OFFLINE:--o}
# one reactor run: the platform's modules resolve to their target/classes (they are never installed)
mvn -B -q $offline test-compile dependency:build-classpath -pl traffic-service -am -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench.classpath
# a migration deleted from src (an experiment) stays in target/classes until a clean build, and Flyway
# would still apply it: refuse to measure that (session 20 measured such a leftover for 40 minutes)
stale=$(comm -13 <(ls traffic-service/src/main/resources/db/migration) <(ls traffic-service/target/classes/db/migration))
if [[ -n "$stale" ]]; then
  echo "traffic-service/target/classes holds migrations that src does not ($stale): run mvn clean first" >&2
  exit 1
fi
cp="traffic-service/target/test-classes:traffic-service/target/classes:platform/testing/target/classes:platform/core/target/classes:$(cat traffic-service/target/bench.classpath)"
# PostgreSQL as for a write-heavy service (and as ./suite runs it): checkpoints every 15 minutes rather
# than every gigabyte of WAL, which at 20,000 hits/s came every ~40 s, each followed by full-page
# images of every index page touched again (1.7 instead of 0.9 KB of WAL a hit)
exec java -Xmx1g -Dpostgres.server.shared_buffers=${PG_SHARED_BUFFERS:-2GB} -Dpostgres.server.max_wal_size=${PG_MAX_WAL_SIZE:-8GB} \
  -Dpostgres.server.checkpoint_timeout=15min ${BENCH_JAVA_OPTS:-} -cp "$cp" dev.visibility.traffic.bench.TrafficBench "$@"

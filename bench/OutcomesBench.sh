#!/usr/bin/env bash
# outcomes-service benchmark (issue 17): ingestion rate of outcomes.measurements into the rollups,
# E2 page 1 vs page 500 (pageSize 50) and with impactWindows, and E7, on one project with
# 100,000 interventions. Prints records/s, p50/p99 of each request and the page 500 / page 1 ratio.
#
#   bench/OutcomesBench.sh [interventions=100000] [samples=300]
#
# Standalone: embedded PostgreSQL and Kafka, the service in-process, requests straight to it with a
# minted internal token. The program is
# outcomes-service/src/test/java/dev/visibility/outcomes/bench/OutcomesBench.java.
set -euo pipefail
cd "$(dirname "$0")/.."
# one reactor run: the platform's modules resolve to their target/classes (they are never installed)
mvn -B -o -q test-compile dependency:build-classpath -pl outcomes-service -am -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench-classpath.txt
# this checkout's platform classes first: the platform jars in ~/.m2 may be of another checkout
CP="outcomes-service/target/test-classes:outcomes-service/target/classes:platform/core/target/classes"
CP="$CP:platform/testing/target/classes:$(cat outcomes-service/target/bench-classpath.txt)"
exec java -Xmx768m -XX:+UseSerialGC ${BENCH_JAVA_OPTS:-} -cp "$CP" dev.visibility.outcomes.bench.OutcomesBench "${1:-100000}" "${2:-300}"

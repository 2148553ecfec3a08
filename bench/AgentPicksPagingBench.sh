#!/usr/bin/env bash
# E1 keyset paging benchmark: evidence page 1 vs page 500 (limit 100) of a run with 100,000 items.
# Prints p50/p99 of both pages and their ratio (target: within 1.5x).
#
#   bench/AgentPicksPagingBench.sh                 # standalone: embedded PostgreSQL + Kafka, service in-process
#   bench/AgentPicksPagingBench.sh suite [samples] # against ./suite up: measured through the gateway
#
# The program is visibility-service/src/test/java/dev/visibility/visibility/bench/AgentPicksPagingBench.java.
set -euo pipefail
cd "$(dirname "$0")/.."
# the platform and its parent POMs into ~/.m2 first (-am): a fresh clone has none of them installed
mvn -B -o -q install -DskipTests -pl platform/core,platform/testing -am
mvn -B -o -q test-compile -pl visibility-service
mvn -B -o -q dependency:build-classpath -pl visibility-service -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench-classpath.txt
CP="visibility-service/target/test-classes:visibility-service/target/classes:$(cat visibility-service/target/bench-classpath.txt)"
exec java -Xmx768m -XX:+UseSerialGC -cp "$CP" dev.visibility.visibility.bench.AgentPicksPagingBench "${1:-standalone}" "${2:-300}"

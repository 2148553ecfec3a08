#!/usr/bin/env bash
# visibility-service benchmark: tracking.runs applied per second (the demo's runs: 24 samples,
# 15 KB each), cold (just started) and warmer, with the CPU a run costs. Standalone: an embedded
# Kafka broker and PostgreSQL and the service in one JVM, as in the tests. Results: bench/TrackingRunBench.md.
#
#   bench/TrackingRunBench.sh [rounds=4] [projects=2] [days=120]
#
# The program is visibility-service/src/test/java/dev/visibility/visibility/bench/TrackingRunBench.java.
set -euo pipefail
cd "$(dirname "$0")/.."
offline=${MAVEN_OFFLINE:--o}
# one reactor run: the platform's modules resolve to their target/classes (they are never installed)
mvn -B -q $offline test-compile dependency:build-classpath -pl visibility-service -am -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench.classpath
cp="visibility-service/target/test-classes:visibility-service/target/classes:platform/testing/target/classes:platform/core/target/classes:$(cat visibility-service/target/bench.classpath)"
exec java -Xmx512m ${BENCH_JAVA_OPTS:-} -cp "$cp" dev.visibility.visibility.bench.TrackingRunBench "$@"

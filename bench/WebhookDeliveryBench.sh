#!/usr/bin/env bash
# Webhook delivery benchmark (webhook-service): the real service with an embedded Kafka broker and
# PostgreSQL (as in the tests), a local HTTPS receiver; prints deliveries/s and p50/p99 from publish
# to receipt. Results and how to read them: bench/WebhookDeliveryBench.md.
#
#   bench/WebhookDeliveryBench.sh [rate=1000] [seconds=20] [burst=20000] [projects=12]
set -euo pipefail
cd "$(dirname "$0")/.."
offline=${MAVEN_OFFLINE:--o}
# -am: the root and platform parent POMs too, which a fresh clone has not installed yet
mvn -B -q $offline install -DskipTests -pl platform/core,platform/testing -am
mvn -B -q $offline test-compile -pl webhook-service
mvn -B -q $offline dependency:build-classpath -pl webhook-service -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench.classpath >/dev/null
cp="webhook-service/target/test-classes:webhook-service/target/classes:$(cat webhook-service/target/bench.classpath)"
exec java -Xmx1g ${BENCH_JAVA_OPTS:-} -cp "$cp" dev.visibility.webhook.bench.WebhookDeliveryBench "$@"

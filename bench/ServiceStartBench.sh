#!/usr/bin/env bash
# Start-up of one service under six JVM set-ups, back to back (issue 24): JDK 17 without and with
# a dynamic class-data archive (what ./suite up uses on JDK 17), JDK 25+ without and with an
# ahead-of-time cache (what ./suite up uses on JDK 25+), and the two with an archive again with C1
# only (-XX:TieredStopAtLevel=1: SUITE_JIT=quick, ./suite's default). Each run starts the service's extracted jar
# with the suite's JVM options and environment and stops it once its context is refreshed
# (spring.context.exit=onRefresh, as the suite's training runs do), and prints wall and CPU time.
#
#   bench/ServiceStartBench.sh [service=actions-service] [runs=2]
#
# Needs a running ./suite up (its PostgreSQL, broker and extracted jars; the same SUITE_STATE_DIR and
# SUITE_PORT_OFFSET) and both JDKs: JDK17 and JDK25 name their java binaries (defaults: Debian's
# OpenJDK 17 and /usr/lib/jvm/temurin-25-jdk-amd64). The archives are trained first, in this script.
set -euo pipefail
service="${1:-actions-service}"
runs="${2:-2}"
root="$(cd "$(dirname "$0")/.." && pwd)"
state="${SUITE_STATE_DIR:-$root/.local}"
J17="${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}"
J25="${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
jar="$state/apps/$service/$service.jar"
[[ -f "$jar" ]] || { echo "no extracted jar $jar: run ./suite up first (same SUITE_STATE_DIR)" >&2; exit 1; }
pid="$(cat "$state/pids/$service.pid" 2>/dev/null || true)"
[[ -n "$pid" && -r "/proc/$pid/environ" ]] || { echo "$service is not running in $state: run ./suite up first" >&2; exit 1; }
# the running service's environment (database, broker, keys) and the suite's JVM options
mapfile -t environment < <(tr '\0' '\n' <"/proc/$pid/environ" | grep -E '^(SUITE|SPRING)_')
read -r -a opts <<<"${SUITE_JVM_OPTS:--Xms96m -Xmx256m -Xmn24m -XX:MetaspaceSize=128m -XX:+UseSerialGC -Xss512k -XX:CICompilerCount=2 -XX:ReservedCodeCacheSize=64m -XX:MaxMetaspaceSize=160m -XX:+ExitOnOutOfMemoryError -XX:-UsePerfData -XX:+UnlockDiagnosticVMOptions -XX:AsyncDeflationInterval=5000 -XX:GuaranteedSafepointInterval=0}"
args=(-Dspring.context.exit=onRefresh -jar "$jar" --spring.profiles.active=local --server.port=0 --management.server.port=0)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

start() { # <label> <java> [JVM options...]
  local label="$1" java="$2"
  shift 2
  /usr/bin/time -f "$label %e %U %S" -o "$work/time" env "${environment[@]}" "$java" "${opts[@]}" "$@" "${args[@]}" \
    >"$work/out.log" 2>&1 || { echo "$label: the start failed, see below" >&2; tail -20 "$work/out.log" >&2; exit 1; }
  read -r l1 l2 wall user sys <"$work/time"
  printf '%-26s %7.2f s wall %7.2f s CPU\n' "$l1 $l2" "$wall" "$(echo "$user + $sys" | bc)"
}

echo "training: JDK 17 class-data archive, JDK 25 ahead-of-time cache ($service)"
start "train jdk17-cds" "$J17" "-XX:ArchiveClassesAtExit=$work/app.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off >/dev/null
start "train jdk25-aot" "$J25" "-XX:AOTCacheOutput=$work/app.aot" -Xlog:aot=off -Xlog:cds=off >/dev/null
echo "$(uptime)"
for ((i = 1; i <= runs; i++)); do
  start "jdk17 plain" "$J17"
  start "jdk17 cds" "$J17" "-XX:SharedArchiveFile=$work/app.jsa" -Xlog:cds=off
  start "jdk25 plain" "$J25"
  start "jdk25 aot-cache" "$J25" "-XX:AOTCache=$work/app.aot" -Xlog:aot=off -Xlog:cds=off
  start "jdk17 cds+c1-only" "$J17" "-XX:SharedArchiveFile=$work/app.jsa" -Xlog:cds=off -XX:TieredStopAtLevel=1
  start "jdk25 aot-cache+c1-only" "$J25" "-XX:AOTCache=$work/app.aot" -Xlog:aot=off -Xlog:cds=off -XX:TieredStopAtLevel=1
  echo "$(uptime)"
done

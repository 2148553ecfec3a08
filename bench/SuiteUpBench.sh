#!/usr/bin/env bash
# A second ./suite up, timed N times: ./suite down, a pause, ./suite up, then what the machine and
# each of the suite's processes spent until up returned.
#
#   bench/SuiteUpBench.sh [runs (3)] [pause in seconds between down and up (10)]
#
# Uses the suite of SUITE_STATE_DIR / SUITE_PORT_OFFSET (and JAVA_HOME) like ./suite itself. Start it
# once and let its background training finish (.local/logs/cds.log ends with "gateway: archive
# written"), or the runs time starts without archives: a run prints a warning when the trainer is
# still at work. Prints one line a run:
#   <UTC time> load <1-min load before>: up <s> (postgres <s>, kafka <s>, services ready <first>-<last> s, demo data <s>),
#   machine <busy>/<available> CPU-s, services <CPU-s>, kafka <CPU-s>
# and, with BENCH_DETAIL=yes, each process's CPU seconds. Figures: bench/ServiceStart.md.
#
# BENCH_FIRST=yes times first ups instead: the state directory (SUITE_STATE_DIR, which must then be
# set and must not be the checkout's .local) is removed before each up, which runs with SUITE_CDS=no
# (no training runs after it; the services start without archives, as on a first up). The jars must
# be built (./suite up or mvn -B -DskipTests package before). The line then also gives the demo data's
# wait. BENCH_ALTERNATE="A=1 A=2" runs the ups with those settings in turn (one assignment a run), to
# compare two settings on a machine whose speed drifts; the line names the one it used.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
pause="${2:-10}"
state="${SUITE_STATE_DIR:-.local}"
[[ "$state" == /* ]] || state="$PWD/$state"
first="${BENCH_FIRST:-no}"
if [[ "$first" == yes && ( -z "${SUITE_STATE_DIR:-}" || "$state" == "$PWD/.local" ) ]]; then
  echo "BENCH_FIRST=yes removes the state directory before each up: set SUITE_STATE_DIR to one of its own" >&2
  exit 2
fi
read -r -a alternate <<<"${BENCH_ALTERNATE:-}"
hz="$(getconf CLK_TCK)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

cpu_of() { # <pid>: utime + stime in clock ticks
  local -a st
  read -r -a st < <(sed 's/.*) //' "/proc/$1/stat")
  printf '%s\n' "$((st[11] + st[12]))"
}
seconds() { awk -v t="$1" -v hz="$hz" 'BEGIN { printf "%.1f", t / hz }'; }

for ((run = 1; run <= runs; run++)); do
  ./suite down >/dev/null 2>&1 || true
  setting=() label=""
  if ((${#alternate[@]} > 0)); then
    setting=("${alternate[(run - 1) % ${#alternate[@]}]}")
    label=" ${setting[0]}"
  fi
  if [[ "$first" == yes ]]; then
    rm -rf "$state"
    setting+=(SUITE_CDS=no)
  fi
  sleep "$pause"
  if [[ "$first" != yes ]] && pgrep -f 'suite cds-train' >/dev/null 2>&1; then
    echo "warning: a training run is still at work; this start may not use archives" >&2
  fi
  load="$(cut -d' ' -f1 /proc/loadavg)"
  when="$(date -u +%H:%M:%S)"
  read -r _ u1 n1 s1 i1 w1 _ </proc/stat
  env "${setting[@]}" ./suite up >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
  read -r _ u2 n2 s2 i2 w2 _ </proc/stat
  busy=$((u2 + n2 + s2 - u1 - n1 - s1))
  available=$((busy + i2 + w2 - i1 - w1))
  total="$(sed -n 's/^the suite is up in \([0-9.]*\) s$/\1/p' "$log")"
  pg="$(sed -n 's/^postgres: ready .*, \([0-9.]*\) s)$/\1/p' "$log")"
  kafka="$(sed -n 's/^kafka: ready .*, \([0-9.]*\) s)$/\1/p' "$log")"
  ready="$(sed -n 's/^  ready: .* (\([0-9.]*\) s)$/\1/p' "$log" | sort -n | sed -n '1p;$p' | paste -sd-)"
  services=0 detail=""
  for file in "$state"/pids/*.pid; do
    name="$(basename "$file" .pid)"
    pid="$(head -n 1 "$file")"
    [[ -r "/proc/$pid/stat" ]] || continue
    ticks="$(cpu_of "$pid")"
    case "$name" in kafka) kafka_cpu="$ticks" ;; postgres) ;; *) services=$((services + ticks)) ;; esac
    detail+="  $(printf '%-20s %s' "$name" "$(seconds "$ticks")")"$'\n'
  done
  demo="$(sed -n 's/^  demo data ingested and delivered (\([0-9.]*\) s)$/\1/p; s/^  nothing published since .* (\([0-9.]*\) s)$/\1/p' "$log")"
  echo "$when load $load$label: up ${total:-?} s (postgres ${pg:-?} s, kafka ${kafka:-?} s, services ready ${ready:-?} s, demo data ${demo:-?} s)," \
    "machine $(seconds "$busy")/$(seconds "$available") CPU-s, services $(seconds "$services"), kafka $(seconds "${kafka_cpu:-0}")"
  if [[ "${BENCH_DETAIL:-no}" == yes ]]; then printf '%s' "$detail"; fi
done

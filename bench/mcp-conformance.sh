#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios) and an
# interoperability check with the official TypeScript SDK client (@modelcontextprotocol/sdk)
# against the local suite's MCP server, through the gateway with the demo API key.
#
#   ./suite up   (with SUITE_STATE_DIR / SUITE_PORT_OFFSET as you started it)
#   bench/mcp-conformance.sh [scenario ...]     # default: every active server scenario
#
# Needs npm (the tools are installed once into $MCP_TOOLS, default ~/.cache/suite-mcp-tools; the
# conformance CLI needs Node 22+, installed there as the npm package "node" when the machine's
# node is older). The suite's client sends no credentials, so a loopback proxy
# (bench/mcp/auth-proxy.mjs) adds the key. Prints PASS/FAIL per scenario; results (checks.json per
# scenario) go to $RESULTS (default target/mcp-conformance). Many scenarios call the fixtures of
# the SDKs' "everything server" (tools such as test_simple_text, resources, prompts, sampling,
# server-sent notifications): a server that serves only its own tools, statelessly, fails them by
# design; the summary says which.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
STATE="${SUITE_STATE_DIR:-$ROOT/.local}"
CREDENTIALS="$STATE/credentials.json"
TOOLS="${MCP_TOOLS:-$HOME/.cache/suite-mcp-tools}"
RESULTS="${RESULTS:-$ROOT/target/mcp-conformance}"
value() { sed -n "s/^[[:space:]]*\"$1\"[[:space:]]*:[[:space:]]*\"\([^\"]*\)\".*/\1/p" "$CREDENTIALS" | head -n 1; }
[[ -r "$CREDENTIALS" ]] || { echo "no $CREDENTIALS: run ./suite up first" >&2; exit 1; }
GATEWAY="$(value gatewayUrl)"
KEY="$(value apiKey)"

mkdir -p "$TOOLS" "$RESULTS"
if [[ ! -d "$TOOLS/node_modules/@modelcontextprotocol/conformance" ]]; then
  (cd "$TOOLS" && npm install --silent --no-audit --no-fund @modelcontextprotocol/conformance@0.1.16 \
    @modelcontextprotocol/sdk@1.32.2 >/dev/null)
fi
NODE=node
if (( $(node -p 'process.versions.node.split(".")[0]') < 22 )); then
  [[ -x "$TOOLS/node_modules/.bin/node" ]] || (cd "$TOOLS" && npm install --silent --no-audit --no-fund node@22 >/dev/null)
  NODE="$TOOLS/node_modules/.bin/node"
fi

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
NODE_PATH="$TOOLS/node_modules" "$NODE" "$ROOT/bench/mcp/auth-proxy.mjs" "$PORT" "$GATEWAY/api/mcp" "$KEY" &
PROXY=$!
trap 'kill $PROXY 2>/dev/null || true' EXIT
sleep 0.5

echo "== TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) against $GATEWAY/api/mcp"
cp "$ROOT/bench/mcp/ts-client.mjs" "$TOOLS/ts-client.mjs"
"$NODE" "$TOOLS/ts-client.mjs" "$GATEWAY/api/mcp" "$KEY" || echo "(the TypeScript client check failed)"

CLI="$TOOLS/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if (( $# > 0 )); then
  SCENARIOS=("$@")
else
  mapfile -t SCENARIOS < <("$NODE" "$CLI" list 2>/dev/null | sed -n '/^Server scenarios/,/^$/p' | sed -n 's/^  - \([^ ]*\).*/\1/p')
fi
echo
echo "== conformance suite (@modelcontextprotocol/conformance 0.1.16), server scenarios, through the gateway"
passed=0; failed=0
for scenario in "${SCENARIOS[@]}"; do
  out="$RESULTS/$scenario"
  rm -rf "$out"; mkdir -p "$out"
  if "$NODE" "$CLI" server --url "http://127.0.0.1:$PORT/api/mcp" --scenario "$scenario" -o "$out" >"$out/output.txt" 2>&1; then
    printf 'PASS %s\n' "$scenario"; passed=$((passed + 1))
  else
    reason="$(grep -m1 -iE 'fail|error' "$out/output.txt" | cut -c1-140 || true)"
    printf 'FAIL %s  %s\n' "$scenario" "$reason"; failed=$((failed + 1))
  fi
done
echo "passed $passed, failed $failed (details: $RESULTS/<scenario>/)"

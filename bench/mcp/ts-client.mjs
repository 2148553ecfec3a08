// Interoperability check with the official TypeScript SDK client (@modelcontextprotocol/sdk):
// connects to the MCP server through the gateway with an API key, lists the tools, calls
// service_get_project_usage and service_get_actions (two pages), prints what it got and exits
// non-zero on any mismatch. Run by bench/mcp-conformance.sh; arguments: <mcp url> <api key>.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, key] = process.argv.slice(2);
const failures = [];
const check = (what, ok, detail = "") => {
  console.log(`${ok ? "PASS" : "FAIL"} ${what}${detail ? ": " + detail : ""}`);
  if (!ok) failures.push(what);
};

const client = new Client({ name: "ts-interop", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
});
await client.connect(transport);
check("initialize", client.getServerVersion()?.name === "visibility-suite",
  `server ${JSON.stringify(client.getServerVersion())}`);

const { tools } = await client.listTools();
check("tools/list", tools.length >= 17 && tools.every((t) => t.inputSchema && t.outputSchema),
  `${tools.length} tools, each with inputSchema and outputSchema`);
const readOnly = tools.filter((t) => t.annotations?.readOnlyHint === true).length;
check("readOnlyHint on read tools", readOnly === tools.length - 2, `${readOnly} read-only`);

const usage = await client.callTool({ name: "service_get_project_usage", arguments: {} });
check("tools/call service_get_project_usage", !usage.isError && usage.structuredContent?.data?.projectId,
  JSON.stringify(usage.structuredContent?.data ?? usage.content));

const ids = [];
for (const page of [1, 2]) {
  const result = await client.callTool({ name: "service_get_actions", arguments: { page, pageSize: 2 } });
  const data = result.structuredContent?.data;
  check(`tools/call service_get_actions page ${page}`, !result.isError && data?.pagination?.page === page,
    JSON.stringify(data?.pagination ?? result.content));
  (data?.actions ?? []).forEach((a) => ids.push(a.id));
}
check("pages do not overlap", new Set(ids).size === ids.length, `${ids.length} actions`);

const bad = await client.callTool({ name: "service_get_actions", arguments: { pageSize: 1000 } });
check("an input outside the schema is a tool error", bad.isError === true, bad.content?.[0]?.text?.slice(0, 120));

await client.close();
process.exit(failures.length === 0 ? 0 : 1);

package dev.visibility.gateway.routing;

import java.util.List;

/**
 * The one route table (STYLE.md, Gateway): path → service → scope, read by the routing, the
 * scope check, the docs and the tests. Scopes follow DESIGN.md "Scopes per route".
 */
public final class RouteTable {

    public static final String AUTH = "auth-service";
    public static final String VISIBILITY = "visibility-service";
    public static final String ACTIONS = "actions-service";
    public static final String OUTCOMES = "outcomes-service";
    public static final String TRAFFIC = "traffic-service";
    public static final String AGENTS = "agents-service";
    public static final String WEBHOOK = "webhook-service";
    public static final String MCP = "mcp-service";

    public static final List<String> SERVICES = List.of(AUTH, VISIBILITY, ACTIONS, OUTCOMES, TRAFFIC, AGENTS, WEBHOOK, MCP);

    /**
     * The merged OpenAPI 3.1 document of the public API: answered by the gateway itself, not routed,
     * and open without a key (issue 23; gateway README, OpenAPI).
     */
    public static final String OPENAPI_DOCUMENT = "/api/v2/openapi.json";

    private static final String P = "/api/v2/projects/{projectId}";

    public static final List<ApiRoute> ROUTES = List.of(
            new ApiRoute("e1-agent-picks-run", "GET", P + "/agent-picks/tests/{testId}/runs/{runId}", VISIBILITY,
                    "visibility.read", "agent-picks"),
            ApiRoute.of("e2-ledger", "GET", P + "/outcomes/ledger", OUTCOMES, "outcomes.read"),
            ApiRoute.of("e3-actions-list", "GET", P + "/actions/list", ACTIONS, "actions.read"),
            ApiRoute.of("e6-actions-from-prompt", "GET", P + "/actions/from-prompt", ACTIONS, "actions.read"),
            ApiRoute.of("action-brief", "GET", P + "/actions/{actionId}/brief", ACTIONS, "actions.read"),
            ApiRoute.of("action-events", "GET", P + "/actions/{actionId}/events", ACTIONS, "actions.read"),
            ApiRoute.of("action-create", "POST", P + "/actions", ACTIONS, "actions.write"),
            ApiRoute.of("action-update", "PATCH", P + "/actions/{actionId}", ACTIONS, "actions.write"),
            ApiRoute.of("e4-traffic-summary", "GET", P + "/traffic/summary", TRAFFIC, "traffic.read"),
            ApiRoute.of("e11-404-demand", "GET", P + "/traffic/404-demand", TRAFFIC, "traffic.read"),
            ApiRoute.of("e5-adoption-metrics", "GET", P + "/adoption/metrics", TRAFFIC, "adoption.read"),
            ApiRoute.of("e7-what-works", "GET", P + "/intelligence/what-works", OUTCOMES, "intelligence.read"),
            ApiRoute.of("e8-agent-run", "GET", P + "/agents/runs/{runId}", AGENTS, "agents.read"),
            ApiRoute.of("e9-handoffs", "GET", P + "/agents/assistant/threads/{threadId}/handoffs", AGENTS, "agents.read"),
            ApiRoute.of("e10-delete-thread", "DELETE", P + "/agents/assistant/threads/{threadId}", AGENTS, "agents.run"),
            ApiRoute.of("visibility-summary", "GET", P + "/visibility/summary", VISIBILITY, "visibility.read"),
            ApiRoute.of("visibility-responses", "GET", P + "/visibility/responses", VISIBILITY, "visibility.read"),
            ApiRoute.of("e12-response", "GET", P + "/visibility/responses/{executionId}", VISIBILITY, "visibility.read"),
            ApiRoute.of("e13-webhook-create", "POST", P + "/webhooks", WEBHOOK, "webhooks.write"),
            ApiRoute.of("e14-webhook-list", "GET", P + "/webhooks", WEBHOOK, "webhooks.read"),
            ApiRoute.of("e15-webhook-delete", "DELETE", P + "/webhooks/{webhookId}", WEBHOOK, "webhooks.write"),
            ApiRoute.of("e16-webhook-rotate", "POST", P + "/webhooks/{webhookId}/rotate-secret", WEBHOOK, "webhooks.write"),
            ApiRoute.of("webhook-deliveries", "GET", P + "/webhooks/{webhookId}/deliveries", WEBHOOK, "webhooks.read"),
            ApiRoute.of("webhook-redeliver", "POST", P + "/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
                    WEBHOOK, "webhooks.write"),
            ApiRoute.of("project-usage", "GET", P + "/usage", AUTH, ApiRoute.NONE),
            ApiRoute.of("account-api", "*", "/api/v2/account/**", AUTH, ApiRoute.MEMBER),
            ApiRoute.of("mcp", "*", "/api/mcp", MCP, ApiRoute.MCP),
            ApiRoute.of("mcp-metadata", "GET", "/.well-known/oauth-protected-resource/api/mcp", MCP, ApiRoute.PUBLIC),
            ApiRoute.of("oauth-metadata", "GET", "/.well-known/oauth-authorization-server/**", AUTH, ApiRoute.PUBLIC),
            ApiRoute.of("oauth-endpoints", "*", "/oauth2/**", AUTH, ApiRoute.PUBLIC),
            // auth-service's browser pages (issue 20): sign-in, sign-out, the dashboard; the consent
            // page is /oauth2/consent (above)
            ApiRoute.of("sign-in", "*", "/login", AUTH, ApiRoute.PUBLIC),
            ApiRoute.of("sign-out", "POST", "/logout", AUTH, ApiRoute.PUBLIC),
            ApiRoute.of("dashboard", "*", "/dashboard/**", AUTH, ApiRoute.PUBLIC));

    /**
     * The routes of auth-service's sign-in, authorization server and pages: they keep the browser's
     * cookies (the session) and get the public origin in {@code X-Forwarded-Proto/Host/Port}, so
     * that every URL auth-service writes (OAuth metadata, redirects) is the public one.
     */
    public static final java.util.Set<String> SIGN_IN_ROUTES = java.util.Set.of("oauth-metadata", "oauth-endpoints",
            "sign-in", "sign-out", "dashboard");

    private RouteTable() {
    }
}

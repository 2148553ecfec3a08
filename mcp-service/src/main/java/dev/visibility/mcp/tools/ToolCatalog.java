package dev.visibility.mcp.tools;

import static dev.visibility.mcp.tools.ToolParam.bool;
import static dev.visibility.mcp.tools.ToolParam.cursor;
import static dev.visibility.mcp.tools.ToolParam.integer;
import static dev.visibility.mcp.tools.ToolParam.oneOf;
import static dev.visibility.mcp.tools.ToolParam.text;
import static dev.visibility.mcp.tools.ToolParam.uuidPath;

import java.util.List;
import java.util.Map;

/**
 * The tools of DESIGN.md ("MCP and OAuth"), one per read endpoint, plus the two write tools.
 * Inputs are the REST endpoint's query parameters under the same names (DESIGN.md "Query parameter
 * names"), so a tool pages exactly as its endpoint does: page numbers (E3, action events) or
 * cursors (E1, E2, responses, deliveries). Scopes are the gateway's route table's
 * (DESIGN.md "Scopes per route").
 */
public final class ToolCatalog {

    public static final String ACTIONS = "actions-service";
    public static final String AUTH = "auth-service";
    public static final String VISIBILITY = "visibility-service";
    public static final String OUTCOMES = "outcomes-service";
    public static final String TRAFFIC = "traffic-service";
    public static final String AGENTS = "agents-service";
    public static final String WEBHOOK = "webhook-service";

    private static final List<Integer> WINDOW_30_90 = List.of(30, 90);

    public static final List<ToolDefinition> TOOLS = List.of(
            read("service_get_actions", "Actions", """
                    The project's actions (E3), suggested ones first in portfolio rank order, one page at a time: \
                    detailLevel 'context' adds whyNow, evidence, metrics and brief readiness. Page with 'page' \
                    while page < pagination.totalPages.""",
                    ACTIONS, "/actions/list", "actions.read",
                    List.of(oneOf("detailLevel", "summary (default) or context", List.of("summary", "context")),
                            oneOf("status", "only actions in this status (default: every status)",
                                    List.of("suggested", "accepted", "live", "archived")),
                            integer("page", "page number, from 1 (default 1)", 1, null),
                            integer("pageSize", "actions per page, 1 to 100 (default 25)", 1, 100)),
                    Schemas.object(Map.of(
                            "actions", Schemas.arrayOfObjects("actions of this page (spec 2.4)"),
                            "pagination", Schemas.pageNumbers()), "actions", "pagination"), true),
            read("service_get_action_brief", "Action brief", "The brief of one action: what to do and why.",
                    ACTIONS, "/actions/{actionId}/brief", "actions.read",
                    List.of(uuidPath("actionId", "the action's id (from service_get_actions)")),
                    Schemas.anyObject("the action's brief"), true),
            read("service_get_action_events", "Action events", """
                    Who changed an action and what, oldest first, one page at a time (page while page < \
                    pagination.totalPages).""",
                    ACTIONS, "/actions/{actionId}/events", "actions.read",
                    List.of(uuidPath("actionId", "the action's id (from service_get_actions)"),
                            integer("page", "page number, from 1 (default 1)", 1, null),
                            integer("pageSize", "events per page, 1 to 100 (default 25)", 1, 100)),
                    Schemas.object(Map.of(
                            "actionId", Schemas.string("the action (uuid)"),
                            "events", Schemas.arrayOfObjects("the events of this page"),
                            "pagination", Schemas.pageNumbers()), "actionId", "events", "pagination"), true),
            read("service_get_actions_from_prompt", "Actions linked to a prompt", """
                    Up to 100 existing and suggested actions linked to a prompt by stored prompt evidence (E6); \
                    hasMore is true when the list was cut.""",
                    ACTIONS, "/actions/from-prompt", "actions.read",
                    List.of(new ToolParam("promptId", ToolParam.Where.QUERY, true,
                                    ToolParam.schema("string", "the prompt's id", "format", "uuid", "pattern",
                                            ToolParam.UUID_PATTERN)),
                            bool("includeHidden", "include hidden (dismissed) actions (default false)")),
                    Schemas.object(Map.of(
                            "hasMore", Schemas.bool("whether the list was cut at 100"),
                            "actions", Schemas.arrayOfObjects("prompt-linked actions (spec 2.5)")), "hasMore", "actions"),
                    false),
            new ToolDefinition("service_get_project_usage", "Project usage and status", """
                    The project's plan, whether it is paused, and this month's API requests. Every key and every \
                    MCP connection may call it (spec 5.7).""",
                    AUTH, "GET", "/usage", List.of(), null, null, true, false,
                    Schemas.anyObject("the project's status and usage"), true),
            read("service_get_visibility_summary", "Visibility summary", "The project's visibility summary over a window.",
                    VISIBILITY, "/visibility/summary", "visibility.read",
                    List.of(oneOf("days", "window in days, 30 or 90 (default 30)", WINDOW_30_90)),
                    Schemas.anyObject("the visibility summary"), true),
            read("service_list_retained_responses", "Recent AI responses", """
                    The project's recent AI-search executions, newest first, with cursor paging (pass \
                    pagination.nextCursor as 'cursor' while pagination.hasMore).""",
                    VISIBILITY, "/visibility/responses", "visibility.read",
                    List.of(integer("limit", "executions per page, 1 to 100 (default 50)", 1, 100),
                            text("platform", "only this AI platform", 100),
                            new ToolParam("promptId", ToolParam.Where.QUERY, false,
                                    ToolParam.schema("string", "only this prompt", "format", "uuid", "pattern",
                                            ToolParam.UUID_PATTERN)),
                            cursor()),
                    Schemas.object(Map.of(
                            "items", Schemas.arrayOfObjects("executions of this page"),
                            "pagination", Schemas.cursorPage("limit")), "items", "pagination"), true),
            read("service_get_retained_response", "Retained AI response", """
                    One execution as evidence (E12): the retained answer and its captured sponsored ads.""",
                    VISIBILITY, "/visibility/responses/{executionId}", "visibility.read",
                    List.of(uuidPath("executionId", "the execution's id (from service_list_retained_responses)")),
                    Schemas.anyObject("the retained response (spec 2.12)"), false),
            read("service_get_agent_picks_run", "Agent-picks run", """
                    One agent-picks run (E1) with its evidence, paged inside evidence.pagination: pass its \
                    next_cursor as 'cursor' while has_more. Needs the project's agent-picks feature too.""",
                    VISIBILITY, "/agent-picks/tests/{testId}/runs/{runId}", "visibility.read",
                    List.of(uuidPath("testId", "the agent-picks test's id"), uuidPath("runId", "the run's id"),
                            integer("limit", "evidence items per page, 1 to 100 (default 50)", 1, 100), cursor()),
                    Schemas.anyObject("the run detail (spec 2.2)"), true),
            read("service_get_outcomes_ledger", "Results ledger", """
                    The results ledger (E2), newest intervention first, with cursor paging (pass \
                    pagination.nextCursor as 'cursor' while pagination.hasMore; a cursor lives about 48 hours).""",
                    OUTCOMES, "/outcomes/ledger", "outcomes.read",
                    List.of(oneOf("days", "window in days: 7, 30, 90 or 365 (default 30)", List.of(7, 30, 90, 365)),
                            bool("impactWindows", "add the 7, 14, 30 and 90 day impact windows (default false)"),
                            integer("pageSize", "items per page, 1 to 100 (default 50)", 1, 100),
                            oneOf("result", "only items with this result", List.of("measured", "in_flight", "blind",
                                    "unmatched_url", "sensor_gap", "improved", "mixed", "no_clear_change", "declined",
                                    "still_measuring", "unmeasured", "conclusive")),
                            cursor()),
                    Schemas.anyObject("the ledger (spec 2.3)"), true),
            read("service_get_what_works", "What works", "Channels with measured improvements (E7).",
                    OUTCOMES, "/intelligence/what-works", "intelligence.read",
                    List.of(oneOf("days", "window in days, 30 or 90 (default 30)", WINDOW_30_90),
                            integer("limit", "channels, 1 to 20 (default 10)", 1, 20)),
                    Schemas.anyObject("what works (spec 2.8)"), true),
            read("service_get_traffic_summary", "Traffic summary", "LLM-crawler and AI-referral traffic (E4).",
                    TRAFFIC, "/traffic/summary", "traffic.read",
                    List.of(text("domain", "only this hostname", 253),
                            text("pathPrefix", "only this path and its descendants (starts with /; needs domain)", 2048),
                            oneOf("days", "window in days, 30 or 90 (default 30)", WINDOW_30_90)),
                    Schemas.anyObject("the traffic summary (spec 2.6)"), true),
            read("service_get_adoption_metrics", "Adoption metrics", "Code-host stars and weekly downloads (E5).",
                    TRAFFIC, "/adoption/metrics", "adoption.read",
                    List.of(oneOf("days", "window in days, 30 or 90 (default 30)", WINDOW_30_90),
                            oneOf("metric", "only this metric", List.of("code_host_stars", "weekly_downloads"))),
                    Schemas.anyObject("adoption metrics (spec 2.7)"), true),
            read("service_get_404_demand", "404 demand", "Content-intent and suspected-noise 404 clusters (E11).",
                    TRAFFIC, "/traffic/404-demand", "traffic.read", List.of(),
                    Schemas.anyObject("404 demand (spec 2.11)"), true),
            read("service_get_agent_run", "Managed-agent run", """
                    One managed-agent run (E8); its draft output is null until the review is completed.""",
                    AGENTS, "/agents/runs/{runId}", "agents.read",
                    List.of(uuidPath("runId", "the run's id")),
                    Schemas.anyObject("the run (spec 2.9)"), true),
            read("service_list_handoffs", "Pending handoffs", "Pending specialist handoffs of an assistant thread (E9).",
                    AGENTS, "/agents/assistant/threads/{threadId}/handoffs", "agents.read",
                    List.of(uuidPath("threadId", "the assistant thread's id")),
                    Schemas.arrayOfObjects("pending handoffs (spec 2.10)"), true),
            read("service_list_webhooks", "Webhook subscriptions", "The project's active webhook subscriptions (E14).",
                    WEBHOOK, "/webhooks", "webhooks.read", List.of(),
                    Schemas.object(Map.of("webhooks", Schemas.arrayOfObjects("active subscriptions")), "webhooks"),
                    true),
            read("service_list_webhook_deliveries", "Webhook deliveries", """
                    The delivery log of one subscription, newest first, with cursor paging (pass \
                    pagination.nextCursor as 'cursor' while pagination.hasMore).""",
                    WEBHOOK, "/webhooks/{webhookId}/deliveries", "webhooks.read",
                    List.of(uuidPath("webhookId", "the subscription's id (from service_list_webhooks)"),
                            text("state", "only deliveries in this state", 40),
                            integer("pageSize", "deliveries per page, 1 to 100 (default 25)", 1, 100), cursor()),
                    Schemas.object(Map.of(
                            "deliveries", Schemas.arrayOfObjects("deliveries of this page"),
                            "pagination", Schemas.cursorPage("pageSize")), "deliveries", "pagination"), true),
            new ToolDefinition("service_update_action", "Update an action", """
                    Changes an action's status, assignee, priority, target label or blocked flag; the change \
                    lands in the action's events and fires action.updated.""",
                    ACTIONS, "PATCH", "/actions/{actionId}",
                    List.of(uuidPath("actionId", "the action's id"),
                            new ToolParam("status", ToolParam.Where.BODY, false, ToolParam.schema("string",
                                    "the new status (a valid transition)", "enum",
                                    List.of("suggested", "accepted", "live", "archived"))),
                            new ToolParam("assignedTo", ToolParam.Where.BODY, false, Map.of(
                                    "type", List.of("string", "null"), "description",
                                    "the member to assign (uuid), or null to unassign")),
                            new ToolParam("priority", ToolParam.Where.BODY, false, ToolParam.schema("string",
                                    "the new priority", "enum", List.of("high", "medium", "low"))),
                            new ToolParam("targetLabel", ToolParam.Where.BODY, false, Map.of(
                                    "type", List.of("string", "null"), "maxLength", 200, "description",
                                    "the target label, or null to clear it")),
                            new ToolParam("blocked", ToolParam.Where.BODY, false,
                                    ToolParam.schema("boolean", "whether an accepted action is blocked"))),
                    "actions.write", Access.WRITE, false, false,
                    Schemas.anyObject("the action after the change (spec 2.4)"), true),
            new ToolDefinition("service_delete_thread", "Delete an assistant thread", """
                    Stops live work in an assistant thread and removes it from its owner's history (E10); \
                    billing and audit records are kept. The key's creator must own the thread.""",
                    AGENTS, "DELETE", "/agents/assistant/threads/{threadId}",
                    List.of(uuidPath("threadId", "the assistant thread's id")),
                    "agents.run", Access.AGENTS, false, true,
                    Schemas.object(Map.of("status", Schemas.string("deleted")), "status"), true));

    private ToolCatalog() {
    }

    public static ToolDefinition named(String name) {
        return TOOLS.stream().filter(tool -> tool.name().equals(name)).findFirst().orElse(null);
    }

    private static ToolDefinition read(String name, String title, String description, String service, String path,
            String scope, List<ToolParam> params, Map<String, Object> dataSchema, boolean meta) {
        return new ToolDefinition(name, title, description, service, "GET", path, params, scope, Access.READ, true,
                false, dataSchema, meta);
    }
}

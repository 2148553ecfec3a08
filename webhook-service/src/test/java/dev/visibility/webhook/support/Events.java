package dev.visibility.webhook.support;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** {@code data} of public events as the producers write them (spec 6.2). */
public final class Events {

    private Events() {
    }

    public static Map<String, Object> actionCreated() {
        return actionCreated(UUID.randomUUID().toString());
    }

    public static Map<String, Object> actionCreated(String actionId) {
        Map<String, Object> action = new LinkedHashMap<>();
        action.put("id", actionId);
        action.put("title", "Publish a comparison page");
        action.put("description", "Answer engines cite competitors for 'best x'");
        action.put("status", "suggested");
        action.put("surface", "actions");
        action.put("priority", "high");
        action.put("channels", List.of("content"));
        action.put("target", Map.of("label", "/compare", "type", "page", "payload", Map.of()));
        action.put("expectedImpact", "more citations");
        action.put("whatChanged", "new");
        action.put("updatedAt", "2026-11-22T09:00:00Z");
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("event", "action.created");
        data.put("actionId", actionId);
        data.put("origin", "user");
        data.put("actor", Map.of("type", "user", "userId", "3f0c3c0e-7a0b-4a39-9c55-5f1d2b8f6a10"));
        data.put("changedFields", List.of());
        data.put("action", action);
        data.put("links", Map.of("apiActionContext", "/api/v2/projects/x/actions/list?detailLevel=context",
                "mcpActionContext", Map.of("tool", "service_get_actions", "args", Map.of("detailLevel", "context")),
                "mcpActionBrief", Map.of("tool", "service_get_action_brief", "args", Map.of("actionId", actionId))));
        return data;
    }
}

package dev.visibility.visibility.agentpicks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.visibility.platform.testing.JsonShapes;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The schema the E1 tests validate against is strict where spec 2.2 is: a member beyond 2.2 at
 * any level, or a missing one, is an error (so a passing E1 test means the body matches 2.2).
 */
class E1SchemaTest {

    private static final Path SCHEMA = JsonShapes.repositoryFile("docs/responses/e1-agent-picks-run.schema.json");
    private static final String VALID = """
            {"data": {
              "run": {"id": "6f1c8d2e-9b7a-4c3d-8e2f-1a2b3c4d5e6f", "test_id": "0b1c8d2e-9b7a-4c3d-8e2f-1a2b3c4d5e6f",
                      "test_kind": "payments", "test_status": "completed", "agent": "a", "model": "m", "repetition": 0,
                      "status": "completed", "created_at": "2026-11-20T10:00:00Z", "started_at": null,
                      "completed_at": null, "early_stopped": false, "wall_ms": null, "has_error": false},
              "context": {"environment": null, "request_withheld": false, "job_withheld": false, "request": null,
                          "intent": null, "job": null, "classifier_version": null, "agent_timeout_sec": null},
              "pick": null,
              "evidence": {"availability": "recorded", "items": [
                  {"id": "1b1c8d2e-9b7a-4c3d-8e2f-1a2b3c4d5e6f", "seq": 1, "kind": "fetch", "url": "https://stripe.com",
                   "status_code": 200, "recorded_at": "2026-11-20T10:00:01Z", "observed_at": null,
                   "detail": {"queries": [], "path": null, "packages": [], "source": null, "method": "GET",
                              "exit_code": null, "failed": null, "text_withheld": false, "packages_withheld": false,
                              "command_withheld": false}}],
                "pagination": {"has_more": false, "next_cursor": null, "limit": 50}}},
             "meta": {"timestamp": "2026-11-22T10:00:00Z", "projectId": "2b1c8d2e-9b7a-4c3d-8e2f-1a2b3c4d5e6f"}}""";

    @Test
    void validBodyPasses() {
        assertThat(JsonShapes.errors(SCHEMA, VALID)).isEmpty();
    }

    @Test
    void additionalPropertyAtAnyLevelFails() {
        for (String path : List.of("", "data", "data.run", "data.context", "data.evidence", "data.evidence.pagination",
                "data.evidence.items.0", "data.evidence.items.0.detail", "meta")) {
            Map<String, Object> body = JsonMapper.builder().build().readValue(VALID, Map.class);
            target(body, path).put("extra", 1);
            assertThat(JsonShapes.errors(SCHEMA, JsonMapper.builder().build().writeValueAsString(body))).as(path).isNotEmpty();
        }
    }

    @Test
    void missingMemberWithheldValueOrFullUrlFails() {
        assertThat(JsonShapes.errors(SCHEMA, VALID.replace("\"has_error\": false", "\"x\": false"))).isNotEmpty();
        assertThat(JsonShapes.errors(SCHEMA, VALID.replace("\"request\": null", "\"request\": \"text\""))).isNotEmpty();
        assertThat(JsonShapes.errors(SCHEMA, VALID.replace("\"queries\": []", "\"queries\": [\"q\"]"))).isNotEmpty();
        assertThat(JsonShapes.errors(SCHEMA, VALID.replace("https://stripe.com", "https://stripe.com/docs"))).isNotEmpty();
        assertThat(JsonShapes.errors(SCHEMA, VALID.replace("\"limit\": 50", "\"limit\": 101"))).isNotEmpty();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> target(Map<String, Object> body, String path) {
        Object node = body;
        if (!path.isEmpty()) {
            for (String part : path.split("\\.")) {
                node = node instanceof List<?> list ? list.get(Integer.parseInt(part)) : ((Map<String, Object>) node).get(part);
            }
        }
        return (Map<String, Object>) node;
    }
}

package dev.visibility.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.visibility.mcp.tools.StructuredBody;
import dev.visibility.mcp.tools.ToolCatalog;
import dev.visibility.mcp.tools.ToolDefinition;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tools' compiled schemas (spec E18: every tool has an inputSchema and an outputSchema, and a
 * result's structuredContent conforms to the outputSchema): a tool's answer is checked as the
 * tree it was parsed into, refusals read as the SDK's, a schema that is not a tool's goes to the
 * SDK's validator, and the answer is written into the JSON-RPC response as the service sent it.
 */
class ToolSchemasTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ToolDefinition actions = ToolCatalog.TOOLS.stream()
            .filter(tool -> tool.name().equals("service_get_actions")).findFirst().orElseThrow();
    private final McpSchema.Tool described = actions.tool();
    private final RecordingValidator others = new RecordingValidator();
    private final ToolSchemas schemas = new ToolSchemas(List.of(described), others);

    @Test
    void aToolsAnswerIsCheckedAgainstItsOutputSchemaWithoutTheSdksValidator() {
        String answer = "{\"data\":{\"actions\":[],\"pagination\":{\"page\":1,\"pageSize\":25,\"totalCount\":0,\"totalPages\":0}},"
                + "\"meta\":{\"timestamp\":\"2026-11-26T10:00:00Z\",\"projectId\":\"7c1f0e4a-3b2d-4e5f-8a9b-0c1d2e3f4a5b\"}}";
        JsonSchemaValidator.ValidationResponse valid = schemas.validate(described.outputSchema(), body(answer));

        assertThat(valid.valid()).as(valid.errorMessage()).isTrue();
        assertThat(valid.jsonStructuredOutput()).isEqualTo(answer);
        assertThat(others.calls).isZero();
    }

    @Test
    void anAnswerWithoutDataOrMetaIsRefusedAsTheSdkRefusesIt() {
        JsonSchemaValidator.ValidationResponse refused = schemas.validate(described.outputSchema(),
                body("{\"meta\":{\"timestamp\":\"2026-11-26T10:00:00Z\",\"projectId\":\"p\"}}"));

        assertThat(refused.valid()).isFalse();
        assertThat(refused.errorMessage()).startsWith("Validation failed: JSON schema validation errors: ")
                .contains("data");
        assertThat(schemas.validate(described.outputSchema(), body("{\"data\":{}}")).errorMessage()).contains("meta");
    }

    @Test
    void argumentsAreCheckedAgainstTheInputSchema() {
        assertThat(schemas.validate(described.inputSchema(), Map.of("pageSize", 25)).valid()).isTrue();
        JsonSchemaValidator.ValidationResponse unknown = schemas.validate(described.inputSchema(), Map.of("colour", "red"));
        assertThat(unknown.valid()).isFalse();
        assertThat(unknown.errorMessage()).contains("colour");
        JsonSchemaValidator.ValidationResponse wrongType = schemas.validate(described.inputSchema(), Map.of("pageSize", "many"));
        assertThat(wrongType.valid()).isFalse();
        assertThat(wrongType.errorMessage()).contains("pageSize");
        assertThat(others.calls).isZero();
    }

    @Test
    void anotherSchemaGoesToTheSdksValidator() {
        Map<String, Object> equalButNotTheTools = actions.outputSchema();
        assertThat(equalButNotTheTools).isEqualTo(described.outputSchema());

        schemas.validate(equalButNotTheTools, Map.of("data", Map.of()));

        assertThat(others.calls).isOne();
    }

    @Test
    void theAnswerIsWrittenIntoTheResponseAsTheServiceSentIt() {
        String answer = "{\"data\":{\"title\":\"Caf\\u00e9 \\\"quoted\\\"\",\"n\":1.50},\"meta\":{}}";
        McpSchema.CallToolResult result = McpSchema.CallToolResult.builder()
                .content(List.of(McpSchema.TextContent.builder(answer).build()))
                .structuredContent(body(answer))
                .isError(false)
                .build();

        JsonNode written = JSON.readTree(JSON.writeValueAsString(result));

        assertThat(written.get("structuredContent")).isEqualTo(JSON.readTree(answer));
        assertThat(written.get("content").get(0).get("text").asString()).isEqualTo(answer);
        assertThat(JSON.writeValueAsString(result)).contains("\"structuredContent\":" + answer);
    }

    private static StructuredBody body(String json) {
        return new StructuredBody(json, JSON.readTree(json));
    }

    private static final class RecordingValidator implements JsonSchemaValidator {

        int calls;

        @Override
        public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
            calls++;
            return ValidationResponse.asValid(null);
        }
    }
}

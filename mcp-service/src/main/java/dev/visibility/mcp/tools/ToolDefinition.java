package dev.visibility.mcp.tools;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.spec.McpSchema;

/**
 * One MCP tool over one REST endpoint (DESIGN.md, "MCP and OAuth"): the endpoint it reads (its
 * service, method and path below {@code /api/v2/projects/{projectId}}), its inputs, the scope
 * the endpoint needs from an API key ({@code null}: none, spec 5.7) and the capability it needs
 * from an OAuth connection, and the schema of the {@code data} the endpoint answers.
 *
 * @param meta whether the endpoint's answer carries {@code meta} (E6 and E12 answer {@code {data}} only)
 */
public record ToolDefinition(String name, String title, String description, String service, String method,
        String path, List<ToolParam> params, String scope, String capability, boolean readOnly, boolean destructive,
        Map<String, Object> dataSchema, boolean meta) {

    public ToolDefinition {
        params = List.copyOf(params);
    }

    /** The MCP description of the tool: inputSchema, outputSchema and annotations. */
    public McpSchema.Tool tool() {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (ToolParam param : params) {
            properties.put(param.name(), param.schema());
            if (param.required()) {
                required.add(param.name());
            }
        }
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("type", "object");
        input.put("properties", properties);
        if (!required.isEmpty()) {
            input.put("required", required);
        }
        input.put("additionalProperties", false);
        McpSchema.ToolAnnotations annotations = McpSchema.ToolAnnotations.builder()
                .title(title)
                .readOnlyHint(readOnly)
                .destructiveHint(readOnly ? null : destructive)
                .idempotentHint(readOnly ? null : true)
                .openWorldHint(false)
                .build();
        return McpSchema.Tool.builder(name, input)
                .title(title)
                .description(description + needs())
                .outputSchema(outputSchema())
                .annotations(annotations)
                .build();
    }

    private String needs() {
        return scope == null ? " Needs no scope (spec 5.7)."
                : " Needs the API key scope '" + scope + "' or the OAuth capability '" + capability + "'.";
    }

    /** The REST answer as it is: {@code {data, meta}} (or {@code {data}}), data as the endpoint documents it. */
    public Map<String, Object> outputSchema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("data", dataSchema);
        List<String> required = new ArrayList<>(List.of("data"));
        if (meta) {
            properties.put("meta", Schemas.object(Map.of(
                    "timestamp", Schemas.string("time of the response (date-time)"),
                    "projectId", Schemas.string("project of the request (uuid)")), "timestamp", "projectId"));
            required.add("meta");
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", required);
        return schema;
    }
}

package dev.visibility.mcp.tools;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One input of a tool: where it goes in the REST request (a path segment, a query parameter or a
 * member of the JSON body) and its JSON Schema. The REST endpoint validates the value again, so a
 * value the schema lets through but the endpoint refuses is a tool error naming the parameter.
 */
public record ToolParam(String name, Where where, boolean required, Map<String, Object> schema) {

    public enum Where { PATH, QUERY, BODY }

    static final String UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

    static ToolParam uuidPath(String name, String description) {
        return new ToolParam(name, Where.PATH, true,
                schema("string", description, "format", "uuid", "pattern", UUID_PATTERN));
    }

    static ToolParam oneOf(String name, String description, List<?> values) {
        Object first = values.get(0);
        return new ToolParam(name, Where.QUERY, false,
                schema(first instanceof Integer ? "integer" : "string", description, "enum", values));
    }

    static ToolParam integer(String name, String description, int minimum, Integer maximum) {
        Map<String, Object> schema = schema("integer", description, "minimum", minimum);
        if (maximum != null) {
            schema.put("maximum", maximum);
        }
        return new ToolParam(name, Where.QUERY, false, schema);
    }

    static ToolParam bool(String name, String description) {
        return new ToolParam(name, Where.QUERY, false, schema("boolean", description));
    }

    static ToolParam text(String name, String description, int maxLength) {
        return new ToolParam(name, Where.QUERY, false, schema("string", description, "maxLength", maxLength));
    }

    static ToolParam cursor() {
        return text("cursor", "Opaque cursor: the previous answer's next cursor, unchanged, with the same other inputs", 2000);
    }

    static Map<String, Object> schema(String type, String description, Object... more) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", type);
        schema.put("description", description);
        for (int i = 0; i + 1 < more.length; i += 2) {
            schema.put((String) more[i], more[i + 1]);
        }
        return schema;
    }
}

package dev.visibility.mcp.tools;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small builders of the JSON Schemas of tool outputs. */
final class Schemas {

    private Schemas() {
    }

    static Map<String, Object> object(Map<String, Object> properties, String... required) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", new LinkedHashMap<>(properties));
        if (required.length > 0) {
            schema.put("required", List.of(required));
        }
        return schema;
    }

    /** An object whose members this server does not restate (the REST endpoint documents them). */
    static Map<String, Object> anyObject(String description) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("description", description);
        return schema;
    }

    static Map<String, Object> arrayOfObjects(String description) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "array");
        schema.put("description", description);
        schema.put("items", Map.of("type", "object"));
        return schema;
    }

    static Map<String, Object> string(String description) {
        return Map.of("type", "string", "description", description);
    }

    static Map<String, Object> integer(String description) {
        return Map.of("type", "integer", "description", description);
    }

    static Map<String, Object> bool(String description) {
        return Map.of("type", "boolean", "description", description);
    }

    /** Page-numbered paging (E3, action events): {page, pageSize, totalCount, totalPages}. */
    static Map<String, Object> pageNumbers() {
        return object(Map.of(
                "page", integer("this page, from 1"),
                "pageSize", integer("items per page"),
                "totalCount", integer("items in all pages"),
                "totalPages", integer("pages in all; ask for page + 1 while page < totalPages")),
                "page", "pageSize", "totalCount", "totalPages");
    }

    /** Cursor paging: {hasMore, nextCursor, ...}. */
    static Map<String, Object> cursorPage(String sizeName) {
        return object(Map.of(
                "hasMore", bool("whether another page follows"),
                "nextCursor", Map.of("type", List.of("string", "null"),
                        "description", "pass it as 'cursor', with the same other inputs, for the next page"),
                sizeName, integer("items per page")),
                "hasMore", "nextCursor");
    }
}

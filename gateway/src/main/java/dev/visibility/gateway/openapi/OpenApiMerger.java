package dev.visibility.gateway.openapi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.visibility.gateway.routing.ApiRoute;
import dev.visibility.gateway.routing.RouteResolver;
import dev.visibility.gateway.routing.RouteTable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Merges the services' OpenAPI documents (springdoc, {@code GET /v3/api-docs}) into the one public
 * document (issue 23): only the operations of {@link RouteTable}'s routes, each attributed to the
 * route's service; component schemas merged, a same-named but different schema of a later service
 * renamed with the service's prefix (and its references rewritten); then the gateway's own part:
 * OpenAPI 3.1.0, info, servers, the bearer security scheme, the error body (spec 7) on 400, 401,
 * 403, 404 and 429 of every keyed operation, the {@code X-RateLimit-*} headers on its responses,
 * the routes no service describes (MCP, OAuth) and the webhook payloads (spec 6) as {@code webhooks},
 * from the events' JSON Schemas ({@code docs/events}). A service without a document is listed in
 * {@code x-unavailable} and its paths are left out.
 */
public class OpenApiMerger {

    /** The webhook events of spec 6, in its order; their JSON Schemas are on the classpath (platform). */
    public static final List<String> WEBHOOK_EVENTS = List.of("search-tracking.completed", "visibility.changed",
            "action.created", "action.updated", "action.recommendation.created", "action.recommendation.updated");

    static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
    static final List<String> ERROR_RESPONSES = List.of("400", "401", "403", "404", "429");
    private static final Map<String, String> ERROR_REFS = Map.of("400", "BadRequest", "401", "Unauthorized",
            "403", "Forbidden", "404", "NotFound", "429", "TooManyRequests");
    private static final List<String> RATE_LIMIT_HEADERS = List.of("X-RateLimit-Limit", "X-RateLimit-Remaining",
            "X-RateLimit-Reset");
    private static final String SCHEMA_REF = "#/components/schemas/";

    /** One service's document, or {@code null} when the service did not answer. */
    public record ServiceDocument(String service, JsonNode document) {
    }

    private final JsonMapper mapper;
    private final RouteResolver routes;
    private final ObjectNode part;
    private final Map<String, ObjectNode> eventSchemas = new HashMap<>();

    public OpenApiMerger(JsonMapper mapper, RouteResolver routes) {
        this.mapper = mapper;
        this.routes = routes;
        this.part = (ObjectNode) read("openapi/gateway-part.json");
        for (String event : WEBHOOK_EVENTS) {
            eventSchemas.put(event, (ObjectNode) read("schemas/events/" + event + ".schema.json"));
        }
    }

    /** The merged document; {@code servers} is set by the caller (it depends on the public origin). */
    public ObjectNode merge(List<ServiceDocument> documents) {
        ObjectNode out = mapper.createObjectNode();
        out.put("openapi", "3.1.0");
        out.set("info", part.get("info").deepCopy());
        out.putArray("servers");
        out.putArray("security").addObject().putArray("apiKey");
        out.set("tags", part.get("tags").deepCopy());
        ObjectNode paths = out.putObject("paths");
        ObjectNode webhooks = out.putObject("webhooks");
        ObjectNode components = out.putObject("components");
        ObjectNode schemas = components.putObject("schemas");
        schemas.setAll((ObjectNode) part.path("components").path("schemas").deepCopy());
        schemas.setAll((ObjectNode) part.get("staticSchemas").deepCopy());
        for (String kind : List.of("responses", "headers", "securitySchemes")) {
            components.set(kind, part.path("components").path(kind).deepCopy());
        }
        Set<String> operationIds = new HashSet<>();
        List<String> unavailable = new ArrayList<>();

        for (ServiceDocument service : documents) {
            if (service.document() == null || !service.document().isObject()) {
                unavailable.add(service.service());
                continue;
            }
            ObjectNode doc = (ObjectNode) service.document().deepCopy();
            Map<String, String> renames = mergeSchemas(service.service(), doc.path("components").path("schemas"), schemas);
            if (!renames.isEmpty()) {
                rewriteRefs(doc, renames);
                for (Map.Entry<String, String> rename : renames.entrySet()) {
                    schemas.set(rename.getValue(), doc.path("components").path("schemas").get(rename.getKey()));
                }
            }
            mergeOtherComponents(doc.path("components"), components);
            for (Map.Entry<String, JsonNode> path : doc.path("paths").properties()) {
                for (String method : METHODS) {
                    JsonNode operation = path.getValue().get(method);
                    if (operation == null || !operation.isObject()) {
                        continue;
                    }
                    ApiRoute route = routes.resolve(method.toUpperCase(Locale.ROOT), path.getKey());
                    if (route == null || !route.service().equals(service.service())) {
                        continue; // not a public route of this service (internal paths never reach here)
                    }
                    ObjectNode target = paths.has(path.getKey()) ? (ObjectNode) paths.get(path.getKey())
                            : paths.putObject(path.getKey());
                    target.set(method, decorate((ObjectNode) operation, route, method, path.getKey(), operationIds));
                }
            }
        }

        // the routes no service document describes (the MCP transport, OAuth metadata and token endpoint)
        for (Map.Entry<String, JsonNode> path : part.get("staticPaths").properties()) {
            for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
                ApiRoute route = routes.resolve(operation.getKey().toUpperCase(Locale.ROOT), path.getKey());
                if (route == null || paths.path(path.getKey()).has(operation.getKey())) {
                    continue;
                }
                ObjectNode target = paths.has(path.getKey()) ? (ObjectNode) paths.get(path.getKey())
                        : paths.putObject(path.getKey());
                target.set(operation.getKey(), decorate((ObjectNode) operation.getValue().deepCopy(), route,
                        operation.getKey(), path.getKey(), operationIds));
            }
        }

        for (String event : WEBHOOK_EVENTS) {
            webhooks.set(event, webhook(event, schemas));
        }
        numericEnums(paths);
        numericEnums(schemas);
        if (!unavailable.isEmpty()) {
            ArrayNode list = out.putArray("x-unavailable");
            unavailable.forEach(list::add);
            ObjectNode info = (ObjectNode) out.get("info");
            info.put("description", info.path("description").asString()
                    + "\n\nIncomplete: these services did not answer when this document was built, their paths are left out: "
                    + String.join(", ", unavailable) + ".");
        }
        return out;
    }

    /** Adds a service's schemas; returns the renames of those whose name another service already uses differently. */
    private static Map<String, String> mergeSchemas(String service, JsonNode incoming, ObjectNode schemas) {
        Map<String, String> renames = new HashMap<>();
        for (Map.Entry<String, JsonNode> schema : incoming.properties()) {
            JsonNode existing = schemas.get(schema.getKey());
            if (existing == null) {
                schemas.set(schema.getKey(), schema.getValue());
            } else if (!existing.equals(schema.getValue())) {
                String base = prefix(service) + schema.getKey();
                String name = base;
                for (int i = 2; schemas.has(name) || incoming.has(name); i++) {
                    name = base + i;
                }
                renames.put(schema.getKey(), name);
                schemas.set(name, schema.getValue()); // replaced by the rewritten copy below
            }
        }
        return renames;
    }

    private static void mergeOtherComponents(JsonNode incoming, ObjectNode components) {
        for (Map.Entry<String, JsonNode> kind : incoming.properties()) {
            if (kind.getKey().equals("schemas") || kind.getKey().equals("securitySchemes") || !kind.getValue().isObject()) {
                continue;
            }
            ObjectNode target = components.has(kind.getKey()) ? (ObjectNode) components.get(kind.getKey())
                    : components.putObject(kind.getKey());
            for (Map.Entry<String, JsonNode> entry : kind.getValue().properties()) {
                target.putIfAbsent(entry.getKey(), entry.getValue());
            }
        }
    }

    private static void rewriteRefs(JsonNode node, Map<String, String> renames) {
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            JsonNode ref = object.get("$ref");
            if (ref != null && ref.isString() && ref.stringValue().startsWith(SCHEMA_REF)) {
                String renamed = renames.get(ref.stringValue().substring(SCHEMA_REF.length()));
                if (renamed != null) {
                    object.put("$ref", SCHEMA_REF + renamed);
                }
            }
            for (JsonNode child : object.values()) {
                rewriteRefs(child, renames);
            }
        } else if (node.isArray()) {
            for (JsonNode child : node.values()) {
                rewriteRefs(child, renames);
            }
        }
    }

    private ObjectNode decorate(ObjectNode operation, ApiRoute route, String method, String path, Set<String> operationIds) {
        boolean exact = !route.method().equals("*") && !route.path().contains("*");
        String id = exact ? route.id() : route.id() + "-" + method + "-" + slug(path);
        String unique = id;
        for (int i = 2; !operationIds.add(unique); i++) {
            unique = id + "-" + i;
        }
        operation.put("operationId", unique);
        operation.putArray("tags").add(tagOf(route.service()));
        if (!operation.has("summary")) {
            operation.put("summary", method.toUpperCase(Locale.ROOT) + " " + path.replace("/api/v2/projects/{projectId}", "")
                    + " (" + route.id() + ")");
        }
        boolean open = ApiRoute.PUBLIC.equals(route.scope());
        operation.remove("security");
        if (open) {
            operation.putArray("security");
        } else if (route.scope() != null && !ApiRoute.MCP.equals(route.scope())) {
            // the scope the key needs (DESIGN.md "Scopes per route"); "member": a member access token
            operation.put("x-required-scope", route.scope());
        }
        if (route.feature() != null) {
            operation.put("x-required-feature", route.feature());
        }
        ObjectNode responses = operation.has("responses") ? (ObjectNode) operation.get("responses")
                : operation.putObject("responses");
        if (!open) {
            for (Map.Entry<String, JsonNode> response : responses.properties()) {
                if (response.getKey().startsWith("2") && response.getValue().isObject()
                        && !response.getValue().has("$ref")) {
                    ObjectNode headers = response.getValue().has("headers") ? (ObjectNode) response.getValue().get("headers")
                            : ((ObjectNode) response.getValue()).putObject("headers");
                    for (String header : RATE_LIMIT_HEADERS) {
                        headers.putObject(header).put("$ref", "#/components/headers/" + header);
                    }
                }
            }
        }
        for (String status : ERROR_RESPONSES) {
            if (open && !status.equals("400") && !status.equals("404")) {
                continue; // no key, no scope and no rate limit on the public OAuth and metadata paths
            }
            responses.putObject(status).put("$ref", "#/components/responses/" + ERROR_REFS.get(status));
        }
        return operation;
    }

    private ObjectNode webhook(String event, ObjectNode schemas) {
        ObjectNode schema = eventSchemas.get(event).deepCopy();
        String name = "WebhookEvent_" + event.replace('.', '_').replace('-', '_');
        schema.remove("$schema");
        schema.remove("$id");
        JsonNode defs = schema.remove("$defs");
        if (defs != null && defs.isObject()) {
            // only the definitions the event's schema uses (some share a $defs block they do not all need)
            String text = mapper.writeValueAsString(schema) + mapper.writeValueAsString(defs);
            Map<String, String> refs = new HashMap<>();
            for (String def : defs.propertyNames()) {
                if (text.contains("\"#/$defs/" + def + "\"")) {
                    refs.put("#/$defs/" + def, SCHEMA_REF + name + "_" + def);
                }
            }
            rewriteDefs(schema, refs);
            for (Map.Entry<String, JsonNode> def : defs.properties()) {
                if (refs.containsKey("#/$defs/" + def.getKey())) {
                    rewriteDefs(def.getValue(), refs);
                    schemas.set(name + "_" + def.getKey(), def.getValue());
                }
            }
        }
        schemas.set(name, schema);

        ObjectNode post = mapper.createObjectNode();
        post.put("operationId", "webhook-" + event.replace('.', '-'));
        post.putArray("tags").add("webhooks");
        post.put("summary", event);
        post.put("description", schema.path("title").asString()
                + ". POSTed to each active webhook subscribed to this event (spec 6), signed with the webhook's secret.");
        post.putArray("security");
        ArrayNode parameters = post.putArray("parameters");
        for (Map.Entry<String, JsonNode> header : part.get("webhookHeaders").properties()) {
            ObjectNode parameter = parameters.addObject();
            parameter.put("name", header.getKey());
            parameter.put("in", "header");
            parameter.setAll((ObjectNode) header.getValue().deepCopy());
        }
        post.putObject("requestBody").put("required", true).putObject("content").putObject("application/json")
                .putObject("schema").put("$ref", SCHEMA_REF + name);
        ObjectNode responses = post.putObject("responses");
        responses.putObject("2XX").put("description", "Received. Any other answer or a time-out is a failure, retried up to 3 times with backoff (spec 6.4).");
        responses.putObject("4XX").put("description", "A failure: the delivery is retried (spec 6.4).");
        ObjectNode item = mapper.createObjectNode();
        item.set("post", post);
        return item;
    }

    private static void rewriteDefs(JsonNode node, Map<String, String> refs) {
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            JsonNode ref = object.get("$ref");
            if (ref != null && ref.isString() && refs.containsKey(ref.stringValue())) {
                object.put("$ref", refs.get(ref.stringValue()));
            }
            for (JsonNode child : object.values()) {
                rewriteDefs(child, refs);
            }
        } else if (node.isArray()) {
            for (JsonNode child : node.values()) {
                rewriteDefs(child, refs);
            }
        }
    }

    /**
     * swagger-core writes the {@code allowableValues} of an integer parameter ({@code days}: 30, 90)
     * as strings; an enum (or default) must have its schema's type, so they become numbers here.
     */
    private static void numericEnums(JsonNode node) {
        if (node.isObject()) {
            ObjectNode object = (ObjectNode) node;
            String type = object.path("type").isString() ? object.path("type").stringValue() : "";
            if (type.equals("integer") || type.equals("number")) {
                JsonNode values = object.get("enum");
                if (values != null && values.isArray()) {
                    ArrayNode numbers = object.arrayNode();
                    for (JsonNode value : values.values()) {
                        numbers.add(number(value, type));
                    }
                    object.set("enum", numbers);
                }
                if (object.has("default")) {
                    object.set("default", number(object.get("default"), type));
                }
            }
            for (JsonNode child : object.values()) {
                numericEnums(child);
            }
        } else if (node.isArray()) {
            for (JsonNode child : node.values()) {
                numericEnums(child);
            }
        }
    }

    private static JsonNode number(JsonNode value, String type) {
        if (!value.isString()) {
            return value;
        }
        try {
            return type.equals("integer") ? JsonNodeFactory.instance.numberNode(Long.parseLong(value.stringValue()))
                    : JsonNodeFactory.instance.numberNode(new BigDecimal(value.stringValue()));
        } catch (NumberFormatException e) {
            return value;
        }
    }

    static String tagOf(String service) {
        return service.endsWith("-service") ? service.substring(0, service.length() - "-service".length()) : service;
    }

    private static String prefix(String service) {
        StringBuilder out = new StringBuilder();
        for (String word : tagOf(service).split("-")) {
            out.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return out.toString();
    }

    private static String slug(String path) {
        return path.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    private JsonNode read(String resource) {
        try (InputStream in = OpenApiMerger.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Missing class-path resource " + resource);
            }
            return mapper.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

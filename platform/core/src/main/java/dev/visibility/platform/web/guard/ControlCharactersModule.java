package dev.visibility.platform.web.guard;

import java.util.Iterator;
import java.util.Map;

import dev.visibility.platform.error.InvalidRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.jackson.JsonNodeDeserializer;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.module.SimpleModule;

/**
 * Refuses control characters in the text of JSON bodies and records (issue 15): a string value
 * with U+0000 to U+001F (tab, line feed and carriage return excepted) or U+007F to U+009F is a
 * 400 naming the field, so that such text never reaches a database (PostgreSQL refuses NUL in
 * text and that surfaced as a 500). Applies to strings read into records and to trees
 * ({@link JsonNode}) alike.
 */
public final class ControlCharactersModule extends SimpleModule {

    public ControlCharactersModule() {
        super("suite-control-characters");
        addDeserializer(String.class, new CheckedStrings());
        addDeserializer(JsonNode.class, new CheckedTrees());
    }

    /** Whether text of a body may hold this character: any but the control characters other than tab, LF and CR. */
    static boolean allowed(char c) {
        return !RequestGuard.isControl(c) || c == '\t' || c == '\n' || c == '\r';
    }

    static boolean clean(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (!allowed(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    static InvalidRequest refusal(String pointer) {
        String field = pointer.isEmpty() ? "(the body)" : pointer.substring(1).replace('/', '.');
        return new InvalidRequest("Field '" + field + "' must not contain control characters");
    }

    private static final class CheckedStrings extends ValueDeserializer<String> {

        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws JacksonException {
            String value = StringDeserializer.instance.deserialize(p, ctxt);
            if (value != null && !clean(value)) {
                throw refusal(p.streamReadContext().pathAsPointer().toString());
            }
            return value;
        }

        @Override
        public String getNullValue(DeserializationContext ctxt) {
            return null;
        }
    }

    private static final class CheckedTrees extends ValueDeserializer<JsonNode> {

        @SuppressWarnings("unchecked")
        private final ValueDeserializer<JsonNode> trees = (ValueDeserializer<JsonNode>) (ValueDeserializer<?>) JsonNodeDeserializer.getDeserializer(JsonNode.class);

        @Override
        public JsonNode deserialize(JsonParser p, DeserializationContext ctxt) throws JacksonException {
            String base = p.streamReadContext().pathAsPointer().toString();
            JsonNode tree = trees.deserialize(p, ctxt);
            String dirty = firstDirty(tree);
            if (dirty != null) {
                throw refusal(base + dirty);
            }
            return tree;
        }

        @Override
        public JsonNode getNullValue(DeserializationContext ctxt) {
            return (JsonNode) trees.getNullValue(ctxt);
        }

        /**
         * The pointer, relative to {@code node}, of its first text with a control character (a member
         * name's is its object's), or null when it has none. The pointer is built only for that one,
         * not for every member checked (records are checked on every consumer's hot path).
         */
        private static String firstDirty(JsonNode node) {
            if (node == null) {
                return null;
            }
            if (node.isString()) {
                return clean(node.asString()) ? null : "";
            }
            if (node.isObject()) {
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    if (!clean(field.getKey())) {
                        return "";
                    }
                    String below = firstDirty(field.getValue());
                    if (below != null) {
                        return "/" + field.getKey() + below;
                    }
                }
            } else if (node.isArray()) {
                int i = 0;
                for (Iterator<JsonNode> it = node.values().iterator(); it.hasNext(); i++) {
                    String below = firstDirty(it.next());
                    if (below != null) {
                        return "/" + i + below;
                    }
                }
            }
            return null;
        }
    }
}

package dev.visibility.mcp.tools;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JacksonSerializable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.jsontype.TypeSerializer;

/**
 * A tool's {@code structuredContent}: a service's JSON answer, parsed once. The parsed tree is
 * what the output schema is checked against ({@link dev.visibility.mcp.server.ToolSchemas}); the
 * text is what goes into the JSON-RPC response, written as it came (it is already the JSON the
 * tree was read from), so the answer is not serialised a second time from a map.
 *
 * @param text the service's answer, a JSON object
 * @param tree the same, parsed
 */
public record StructuredBody(String text, JsonNode tree) implements JacksonSerializable {

    @Override
    public void serialize(JsonGenerator generator, SerializationContext context) throws JacksonException {
        generator.writeRawValue(text);
    }

    @Override
    public void serializeWithType(JsonGenerator generator, SerializationContext context, TypeSerializer types)
            throws JacksonException {
        serialize(generator, context);
    }
}

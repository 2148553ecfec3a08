package dev.visibility.actions.list;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JacksonSerializable;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.jsontype.TypeSerializer;

/**
 * A value already written as JSON (by the same mapper), written again as it is: E3's {@code data}
 * kept by {@link ActionListPages} goes into each response's envelope without being serialised anew.
 *
 * @param json one JSON value
 */
public record RenderedJson(String json) implements JacksonSerializable {

    /** Its size in characters. */
    public int length() {
        return json.length();
    }

    @Override
    public void serialize(JsonGenerator generator, SerializationContext context) throws JacksonException {
        generator.writeRawValue(json);
    }

    @Override
    public void serializeWithType(JsonGenerator generator, SerializationContext context, TypeSerializer types)
            throws JacksonException {
        serialize(generator, context);
    }
}

package dev.visibility.platform.consumer;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import tools.jackson.databind.JsonNode;

/**
 * The JSON Schema of every topic, as documented under {@code docs/events/} (the platform jar
 * carries them as {@code schemas/events/<topic>.schema.json}). Every consumed topic has one: a
 * {@link TopicConsumer} of a topic without a schema does not start. References between the
 * documents ({@code $id} {@code https://visibility.dev/schemas/events/...}) resolve from the
 * classpath, never from the network. Formats ({@code uuid}, {@code date-time}, ...) are asserted
 * ({@link SchemaFormats}: the common forms of {@code uuid} and {@code date-time} by a quicker check).
 */
public final class TopicSchemas {

    static final String ID_PREFIX = "https://visibility.dev/schemas/events/";
    static final String CLASSPATH_PREFIX = "classpath:schemas/events/";
    private static final int MAX_REPORTED = 5;

    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SchemaFormats.draft202012(),
            builder -> builder
                    .schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build())
                    .schemaIdResolvers(resolvers -> resolvers.mapPrefix(ID_PREFIX, CLASSPATH_PREFIX)));
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    /** The schema of {@code topic}; throws IllegalStateException when the topic has none. */
    public Schema of(String topic) {
        return schemas.computeIfAbsent(topic, this::load);
    }

    private Schema load(String topic) {
        String resource = "schemas/events/" + topic + ".schema.json";
        try (InputStream in = TopicSchemas.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Topic " + topic + " has no JSON Schema: add docs/events/" + topic
                        + ".schema.json (the platform validates every consumed record against it)");
            }
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the JSON Schema of topic " + topic, e);
        }
        Schema schema = registry.getSchema(SchemaLocation.of(CLASSPATH_PREFIX + topic + ".schema.json"));
        schema.initializeValidators();
        return schema;
    }

    /** "/member keyword", naming the missing member of a {@code required}, never a value. */
    private static String describe(Error error) {
        String location = error.getInstanceLocation().toString();
        if (error.getProperty() != null && "required".equals(error.getKeyword())) {
            location = location + "/" + error.getProperty();
        }
        return location + " " + error.getKeyword();
    }

    /**
     * What is wrong with {@code record} for {@code topic}, or null when it matches: at most a few
     * messages naming the member (values are not quoted, so that no record content reaches a log).
     */
    public String violations(String topic, JsonNode record) {
        List<Error> errors = of(topic).validate(record);
        if (errors.isEmpty()) {
            return null;
        }
        String shown = errors.stream()
                .limit(MAX_REPORTED)
                .map(TopicSchemas::describe)
                .collect(Collectors.joining("; "));
        return "does not match the schema of " + topic + " (" + shown
                + (errors.size() > MAX_REPORTED ? "; " + (errors.size() - MAX_REPORTED) + " more" : "") + ")";
    }
}

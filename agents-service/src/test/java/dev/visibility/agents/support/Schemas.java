package dev.visibility.agents.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

/** Validates records against the event schemas published under {@code docs/events/}, format assertions on. */
public final class Schemas {

    private static final Path EVENTS = Path.of(System.getProperty("events.schema.dir", "../docs/events"));
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Map<Path, Schema> CACHE = new ConcurrentHashMap<>();

    private Schemas() {
    }

    public static void assertValidEvent(String topic, String json) {
        assertThat(errors(topic, json)).as("%s against %s", json, topic).isEmpty();
    }

    public static java.util.List<com.networknt.schema.Error> errors(String topic, String json) {
        Schema schema = CACHE.computeIfAbsent(EVENTS.resolve(topic + ".schema.json"), path -> {
            try {
                return REGISTRY.getSchema(Files.readString(path), InputFormat.JSON);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return schema.validate(json, InputFormat.JSON,
                (context, schemaContext) -> context.executionConfig(config -> config.formatAssertionsEnabled(true)));
    }
}

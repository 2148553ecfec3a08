package dev.visibility.outcomes.support;

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

/**
 * JSON Schema checks with format assertions on: the published event schemas under
 * {@code docs/events/} (the documents themselves are what is tested) and this module's response
 * schemas of spec 2.3 and 2.8 under {@code src/test/resources/schemas/}.
 */
public final class Schemas {

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Map<Path, Schema> LOADED = new ConcurrentHashMap<>();

    private Schemas() {
    }

    public static void assertValidEvent(String topic, String json) {
        assertValid(Path.of("../docs/events", topic + ".schema.json"), json);
    }

    public static void assertValidResponse(String name, String json) {
        assertValid(Path.of("src/test/resources/schemas", name + ".schema.json"), json);
    }

    public static boolean validEvent(String topic, String json) {
        return schema(Path.of("../docs/events", topic + ".schema.json")).validate(json, InputFormat.JSON,
                (c, s) -> c.executionConfig(e -> e.formatAssertionsEnabled(true))).isEmpty();
    }

    private static Schema schema(Path file) {
        return LOADED.computeIfAbsent(file, path -> {
            try {
                return REGISTRY.getSchema(Files.readString(path), InputFormat.JSON);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static void assertValid(Path file, String json) {
        assertThat(schema(file).validate(json, InputFormat.JSON,
                (c, s) -> c.executionConfig(e -> e.formatAssertionsEnabled(true)))).as("%s against %s", json, file).isEmpty();
    }
}

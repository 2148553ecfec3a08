package dev.visibility.visibility.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

/**
 * Validates JSON against the JSON Schemas of this module, with format assertions (uuid,
 * date-time, date) on: the event schemas published under {@code docs/events/} (read from the
 * repository, so the published documents are what is tested) and the response schemas of spec
 * 2.2 and 2.12 under {@code src/test/resources/schemas/}.
 */
public final class Schemas {

    private static final Path EVENTS = Path.of(System.getProperty("events.schema.dir", "../docs/events"));
    private static final Path RESPONSES = Path.of("src/test/resources/schemas");
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Map<Path, Schema> CACHE = new ConcurrentHashMap<>();

    private Schemas() {
    }

    /** An event schema: {@code docs/events/<name>.schema.json}. */
    public static void assertValidEvent(String name, String json) {
        assertValid(EVENTS.resolve(name + ".schema.json"), json);
    }

    /** A response schema: {@code src/test/resources/schemas/<name>.schema.json}. */
    public static void assertValidResponse(String name, String json) {
        assertValid(RESPONSES.resolve(name + ".schema.json"), json);
    }

    public static List<Error> errors(Path file, String json) {
        Schema schema = CACHE.computeIfAbsent(file, path -> {
            try {
                return REGISTRY.getSchema(Files.readString(path), InputFormat.JSON);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return schema.validate(json, InputFormat.JSON,
                (context, schemaContext) -> context.executionConfig(config -> config.formatAssertionsEnabled(true)));
    }

    private static void assertValid(Path file, String json) {
        assertThat(errors(file, json)).as("%s against %s", json, file).isEmpty();
    }
}

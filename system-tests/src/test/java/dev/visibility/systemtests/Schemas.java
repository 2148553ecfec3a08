package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
 * JSON Schema validation (draft 2020-12, format assertions on) with the library the service
 * modules use: the published event schemas of {@code docs/events/} (read from the repository) and
 * the response schemas of spec 2.2 (E1, {@code additionalProperties: false} everywhere) and 2.12
 * (E12), copied from visibility-service's test resources into {@code src/test/resources/schemas/}.
 */
public final class Schemas {

    private static final Path EVENTS = Path.of(System.getProperty("suite.root", "..")).resolve("docs/events");
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Map<String, Schema> CACHE = new ConcurrentHashMap<>();

    private Schemas() {
    }

    /** A webhook body against {@code docs/events/<event>.schema.json}. */
    public static void assertValidEvent(String event, String json) {
        assertThat(errors("event:" + event, json)).as("%s against docs/events/%s.schema.json", json, event).isEmpty();
    }

    /** A response body against {@code schemas/<name>.schema.json} of the test resources. */
    public static void assertValidResponse(String name, String json) {
        assertThat(errors("response:" + name, json)).as("%s against schemas/%s.schema.json", json, name).isEmpty();
    }

    static List<Error> errors(String key, String json) {
        Schema schema = CACHE.computeIfAbsent(key, Schemas::load);
        return schema.validate(json, InputFormat.JSON,
                (context, schemaContext) -> context.executionConfig(config -> config.formatAssertionsEnabled(true)));
    }

    private static Schema load(String key) {
        String name = key.substring(key.indexOf(':') + 1);
        try {
            String text;
            if (key.startsWith("event:")) {
                text = Files.readString(EVENTS.resolve(name + ".schema.json"));
            } else {
                try (InputStream in = Schemas.class.getResourceAsStream("/schemas/" + name + ".schema.json")) {
                    if (in == null) {
                        throw new IllegalStateException("no schema " + name);
                    }
                    text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return REGISTRY.getSchema(text, InputFormat.JSON);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

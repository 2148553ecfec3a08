package dev.visibility.actions.support;

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
 * Validates JSON against the schemas under {@code docs/events/} (read from the repository, so the
 * published documents are what is tested), with format assertions (uuid, date-time, date) on.
 */
public final class Schemas {

    private static final Path DIR = Path.of(System.getProperty("events.schema.dir", "../docs/events"));
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Map<String, Schema> CACHE = new ConcurrentHashMap<>();

    private Schemas() {
    }

    public static List<Error> errors(String schemaName, String json) {
        Schema schema = CACHE.computeIfAbsent(schemaName, name -> {
            try {
                return REGISTRY.getSchema(Files.readString(DIR.resolve(name + ".schema.json")), InputFormat.JSON);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return schema.validate(json, InputFormat.JSON, (context, schemaContext) -> context.executionConfig(config -> config.formatAssertionsEnabled(true)));
    }

    public static void assertValid(String schemaName, String json) {
        assertThat(errors(schemaName, json)).as("%s against %s.schema.json", json, schemaName).isEmpty();
    }
}

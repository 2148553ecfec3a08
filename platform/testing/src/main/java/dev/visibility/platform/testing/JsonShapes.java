package dev.visibility.platform.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

/**
 * The one way tests assert the shape of JSON: exact field lists (nothing missing, nothing
 * additional), the error shape of spec 7, the envelope of spec 2.1, and the published JSON Schemas
 * (draft 2020-12, format assertions on) read from the repository, so that the documents a reader
 * sees are the ones tested: the event schemas under {@code docs/events/} (webhook bodies and input
 * topics) and the response schemas under {@code docs/responses/} ({@code additionalProperties: false}
 * at every level).
 */
public final class JsonShapes {

    /** Spec 7: an error body has these members and no others ({@code reason} is optional). */
    public static final List<String> ERROR_FIELDS = List.of("error", "message", "status", "reason");

    /** What no error body may show: exception names, stack frames, SQL, library packages. */
    private static final List<String> INTERNALS = List.of("Exception", "java.", "org.springframework", "dev.visibility",
            "SELECT", "tools.jackson", "reactor.", "\tat ");

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Map<Path, Schema> SCHEMAS = new ConcurrentHashMap<>();
    private static volatile Path root;

    private JsonShapes() {
    }

    /** Asserts that {@code object} has exactly {@code fields}, in any order, and answers it. */
    public static <M extends Map<String, ?>> M assertFields(M object, String... fields) {
        assertThat(object).as("JSON object %s", object).isNotNull();
        assertThat(object.keySet()).as("the members of %s", object).containsExactlyInAnyOrder(fields);
        return object;
    }

    /**
     * Spec 7: {@code {error, message, status[, reason]}} with {@code status} equal to the HTTP status,
     * and no internals (exception or class names, SQL) in it; answers the body.
     */
    public static Map<String, Object> assertError(Map<String, Object> body, int status) {
        assertThat(body.keySet()).as("error body %s", body).contains("error", "message", "status").isSubsetOf(ERROR_FIELDS);
        assertThat(body.get("error")).isInstanceOf(String.class);
        assertThat(body.get("message")).isInstanceOf(String.class);
        assertThat(body.get("status")).isEqualTo(status);
        for (String internal : INTERNALS) {
            assertThat(body.toString()).as("error body without internals").doesNotContain(internal);
        }
        return body;
    }

    /** Spec 7 with the given {@code error} code. */
    public static Map<String, Object> assertError(Map<String, Object> body, int status, String error) {
        assertError(body, status);
        assertThat(body).containsEntry("error", error);
        return body;
    }

    /**
     * Spec 2.1: exactly {@code {data, meta}}, {@code meta} exactly {@code {timestamp, projectId}}
     * with the given project and an ISO-8601 instant; answers {@code data}.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> assertEnvelope(Map<String, Object> body, String projectId) {
        assertFields(body, "data", "meta");
        Map<String, Object> meta = (Map<String, Object>) body.get("meta");
        assertFields(meta, "timestamp", "projectId");
        assertThat(meta).containsEntry("projectId", projectId);
        assertThat(Instant.parse((String) meta.get("timestamp"))).isNotNull();
        return (Map<String, Object>) body.get("data");
    }

    /** A record or webhook body against {@code docs/events/<name>.schema.json}. */
    public static void assertValidEvent(String name, String json) {
        assertValid(repositoryFile("docs/events/" + name + ".schema.json"), json);
    }

    /** A response body against {@code docs/responses/<name>.schema.json}. */
    public static void assertValidResponse(String name, String json) {
        assertValid(repositoryFile("docs/responses/" + name + ".schema.json"), json);
    }

    /** The violations of {@code json} against the schema in {@code file} (empty: valid). */
    public static List<Error> errors(Path file, String json) {
        Schema schema = SCHEMAS.computeIfAbsent(file.toAbsolutePath().normalize(), path -> {
            try {
                return REGISTRY.getSchema(Files.readString(path), InputFormat.JSON);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return schema.validate(json, InputFormat.JSON,
                (context, schemaContext) -> context.executionConfig(config -> config.formatAssertionsEnabled(true)));
    }

    /** The violations of {@code json} against {@code docs/events/<name>.schema.json}. */
    public static List<Error> eventErrors(String name, String json) {
        return errors(repositoryFile("docs/events/" + name + ".schema.json"), json);
    }

    private static void assertValid(Path file, String json) {
        assertThat(errors(file, json)).as("%s against %s", json, file).isEmpty();
    }

    /**
     * A file of the repository: relative to the system property {@code suite.root} when set, else to
     * the nearest directory above the working directory that has {@code docs/events} (a module's
     * tests run in the module's directory).
     */
    public static Path repositoryFile(String relative) {
        return root().resolve(relative);
    }

    private static Path root() {
        Path found = root;
        if (found == null) {
            String configured = System.getProperty("suite.root");
            if (configured != null) {
                found = Path.of(configured).toAbsolutePath().normalize();
            } else {
                found = Path.of("").toAbsolutePath();
                while (found != null && !Files.isDirectory(found.resolve("docs/events"))) {
                    found = found.getParent();
                }
                if (found == null) {
                    throw new IllegalStateException("no directory above " + Path.of("").toAbsolutePath() + " has docs/events");
                }
            }
            root = found;
        }
        return found;
    }
}

package dev.visibility.platform.consumer;

import java.util.Set;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Reads a record's JSON value and validates it, in this order (after a {@link QuickReader}, when the
 * consumer has one and it answers the record: then only {@link ConsumedRecord#validate()}): JSON object; {@code schemaVersion}
 * (absent means 1) one that the topic's schema lists; the topic's JSON Schema; the record type
 * ({@code type}); Bean Validation; {@link ConsumedRecord#validate()}. Anything wrong is a
 * {@link PoisonRecord} whose message names the member, never its value.
 *
 * <p>With a meter registry it counts each record it reads by how: {@code consumer.records.read} with
 * the tags {@code topic} and {@code reading}, {@code quick} (the quick reader answered it; only for a
 * consumer that has one) or {@code full} (everything else, poison records included). A quick reader
 * that leaves the common form to the full reading, or throws, is then seen as a falling quick share
 * rather than only as a slower consumer (docs/operations.md).
 */
final class RecordReader<T extends ConsumedRecord> {

    /** The member that says which version of its topic's contract a record follows. */
    static final String VERSION_MEMBER = "schemaVersion";

    private final String topic;
    private final Class<T> type;
    private final ObjectMapper mapper;
    private final Validator validator;
    private final TopicSchemas schemas;
    /** Whether the type has any Bean Validation constraint: a record of a type without any skips the validator. */
    private final boolean constrained;
    /** Tried first when not null ({@link QuickReader}). */
    private final QuickReader<T> quick;
    /** Records read quickly and fully; null without a registry (and the quick one without a quick reader). */
    private final Counter quickReadings;
    private final Counter fullReadings;

    RecordReader(String topic, Class<T> type, ObjectMapper mapper, Validator validator, TopicSchemas schemas) {
        this(topic, type, mapper, validator, schemas, null);
    }

    RecordReader(String topic, Class<T> type, ObjectMapper mapper, Validator validator, TopicSchemas schemas,
            QuickReader<T> quick) {
        this(topic, type, mapper, validator, schemas, quick, null);
    }

    RecordReader(String topic, Class<T> type, ObjectMapper mapper, Validator validator, TopicSchemas schemas,
            QuickReader<T> quick, MeterRegistry meters) {
        this.topic = topic;
        this.type = type;
        this.mapper = mapper;
        this.validator = validator;
        this.schemas = schemas;
        this.constrained = validator.getConstraintsForClass(type).isBeanConstrained();
        if (quick != null && constrained) {
            throw new IllegalStateException("The consumer of " + topic + " has a quick reader, but " + type.getSimpleName()
                    + " has Bean Validation constraints, which a quick reading would skip");
        }
        this.quick = quick;
        this.quickReadings = meters == null || quick == null ? null : readings(meters, topic, "quick");
        this.fullReadings = meters == null ? null : readings(meters, topic, "full");
        schemas.of(topic);
    }

    private static Counter readings(MeterRegistry meters, String topic, String reading) {
        return Counter.builder("consumer.records.read")
                .description("Records a consumer read, by how: quick (its quick reader answered them) or full")
                .tag("topic", topic)
                .tag("reading", reading)
                .register(meters);
    }

    T read(String value) {
        T quickly = value == null ? null : readQuickly(value);
        if (quickly != null) {
            if (quickReadings != null) {
                quickReadings.increment();
            }
            quickly.validate();
            return quickly;
        }
        if (fullReadings != null) {
            fullReadings.increment();
        }
        if (value == null) {
            throw new PoisonRecord("record without a value");
        }
        JsonNode tree;
        try {
            tree = mapper.readTree(value);
        } catch (JacksonException e) {
            throw new PoisonRecord("not JSON");
        } catch (RuntimeException e) {
            // the platform's own refusals while reading (control characters)
            throw new PoisonRecord("not usable JSON: " + e.getMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw new PoisonRecord("not a JSON object");
        }
        JsonNode version = tree.get(VERSION_MEMBER);
        String violations = schemas.violations(topic, tree);
        if (violations != null) {
            if (version != null && violations.contains("/" + VERSION_MEMBER + " ")) {
                throw new PoisonRecord("unknown " + VERSION_MEMBER + " of " + topic
                        + " (this consumer reads the versions its schema lists)");
            }
            throw new PoisonRecord(violations);
        }
        T record;
        try {
            record = mapper.treeToValue(tree, type);
        } catch (JacksonException e) {
            throw new PoisonRecord("not the JSON of " + type.getSimpleName());
        } catch (RuntimeException e) {
            throw new PoisonRecord("not usable as " + type.getSimpleName() + ": " + e.getMessage());
        }
        if (record == null) {
            throw new PoisonRecord("not the JSON of " + type.getSimpleName());
        }
        Set<ConstraintViolation<T>> constraintViolations = constrained ? validator.validate(record) : Set.of();
        if (!constraintViolations.isEmpty()) {
            throw new PoisonRecord(constraintViolations.stream()
                    .map(v -> v.getPropertyPath() + " " + v.getMessage())
                    .sorted()
                    .collect(Collectors.joining("; ")));
        }
        record.validate();
        return record;
    }

    /** The quick reader's record, or null (none, or it left the value to the full reading, or it failed). */
    private T readQuickly(String value) {
        if (quick == null) {
            return null;
        }
        try {
            return quick.readOrNull(value);
        } catch (RuntimeException e) {
            return null;
        }
    }
}

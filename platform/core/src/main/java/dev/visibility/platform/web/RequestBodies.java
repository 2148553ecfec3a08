package dev.visibility.platform.web;

import java.util.Collection;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Collectors;

import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.error.InvalidRequest;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * The one way a service reads a JSON request body: into a Java record whose Jakarta Bean
 * Validation annotations state the rules. Every refusal is a 400 {@code invalid_request} naming
 * the field:
 * <ul>
 * <li>a body that is not a JSON object;</li>
 * <li>a field the record does not have ("Field 'stauts' is not known; allowed fields: ...": a
 * misspelt field must not look like a successful write);</li>
 * <li>a value of the wrong JSON type ("Field 'blocked' has the wrong type");</li>
 * <li>a broken constraint ("Field 'title' must not be blank"), the first in field order;</li>
 * <li>what the record's own {@link Checked#check()} refuses (rules between fields).</li>
 * </ul>
 * Where absent and null mean different things (a PATCH that clears a field), the caller asks the
 * body itself ({@code body.has(name)}); the record holds the values.
 */
public final class RequestBodies {

    /** A body record with rules between its fields; {@link #check()} throws the platform's 400s. */
    public interface Checked {

        void check();
    }

    private final ObjectMapper mapper;
    private final Validator validator;

    public RequestBodies(ObjectMapper mapper, Validator validator) {
        // a value of another JSON type is refused, not converted ("title": 5, "blocked": "yes")
        this.mapper = mapper.rebuild().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .withCoercionConfig(LogicalType.Textual, config -> config
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Boolean, config -> config
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Integer, config -> config
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail))
                .withCoercionConfig(LogicalType.Float, config -> config
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail))
                .build();
        this.validator = validator;
        // the validator reads its message bundles from the class path on first use: do it here,
        // at start-up, rather than on an event-loop thread with the first bad request
        validator.validate(new WarmUp(null));
    }

    private record WarmUp(@jakarta.validation.constraints.NotNull String value) {
    }

    public <T> T read(JsonNode body, Class<T> type) {
        if (body == null || !body.isObject()) {
            throw new InvalidRequest("The request body must be a JSON object");
        }
        T value;
        try {
            value = mapper.treeToValue(body, type);
        } catch (UnrecognizedPropertyException e) {
            String field = e.getPropertyName();
            throw new InvalidParameter(field, "Field '" + field + "' is not known; allowed fields: "
                    + allowed(e.getKnownPropertyIds()));
        } catch (MismatchedInputException e) {
            String field = field(e);
            throw new InvalidParameter(field, "Field '" + field + "' has the wrong type");
        } catch (ApiException e) {
            throw e;
        } catch (JacksonException e) {
            throw new InvalidRequest("The request body is not a valid " + type.getSimpleName());
        }
        if (value == null) {
            throw new InvalidRequest("The request body must be a JSON object");
        }
        Set<ConstraintViolation<T>> violations = validator.validate(value);
        if (!violations.isEmpty()) {
            ConstraintViolation<T> first = violations.stream()
                    .min(Comparator.comparing((ConstraintViolation<T> v) -> v.getPropertyPath().toString()))
                    .orElseThrow();
            String field = first.getPropertyPath().toString().replaceAll("\\[[^]]*]|\\.?<[^>]*>", "");
            throw new InvalidParameter(field, "Field '" + field + "' " + first.getMessage());
        }
        if (value instanceof Checked checked) {
            checked.check();
        }
        return value;
    }

    private static String field(MismatchedInputException e) {
        String path = e.getPath().stream()
                .map(reference -> reference.getPropertyName() != null ? reference.getPropertyName() : "")
                .filter(name -> !name.isEmpty())
                .collect(Collectors.joining("."));
        return path.isEmpty() ? "body" : path;
    }

    private static String allowed(Collection<Object> known) {
        return known == null ? "" : known.stream().map(String::valueOf).sorted().collect(Collectors.joining(", "));
    }
}

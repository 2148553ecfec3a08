package dev.visibility.platform.consumer;

import java.util.Set;
import java.util.stream.Collectors;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/** Reads a record's JSON value into its type and validates it; anything wrong is a {@link PoisonRecord}. */
final class RecordReader<T extends ConsumedRecord> {

    private final Class<T> type;
    private final ObjectMapper mapper;
    private final Validator validator;

    RecordReader(Class<T> type, ObjectMapper mapper, Validator validator) {
        this.type = type;
        this.mapper = mapper;
        this.validator = validator;
    }

    T read(String value) {
        if (value == null) {
            throw new PoisonRecord("record without a value");
        }
        T record;
        try {
            record = mapper.readValue(value, type);
        } catch (JacksonException e) {
            throw new PoisonRecord("not the JSON of " + type.getSimpleName());
        }
        if (record == null) {
            throw new PoisonRecord("not the JSON of " + type.getSimpleName());
        }
        Set<ConstraintViolation<T>> violations = validator.validate(record);
        if (!violations.isEmpty()) {
            throw new PoisonRecord(violations.stream()
                    .map(v -> v.getPropertyPath() + " " + v.getMessage())
                    .sorted()
                    .collect(Collectors.joining("; ")));
        }
        record.validate();
        return record;
    }
}

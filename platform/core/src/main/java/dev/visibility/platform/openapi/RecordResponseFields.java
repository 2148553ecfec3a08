package dev.visibility.platform.openapi;

import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * Makes the generated schema of a response record say what the JSON carries: our services write
 * every record component, {@code null} included (Jackson's default inclusion), except the components
 * marked {@code @JsonInclude(NON_NULL)} (or NON_ABSENT, NON_EMPTY), which are absent when empty. So
 * every component is {@code required} unless so marked (the record's own {@code @JsonInclude}
 * applies to all of its components), and a component whose type is annotated with JSpecify's
 * {@code @Nullable} may be {@code null} (OpenAPI 3.1: {@code "null"} among its types, or
 * {@code oneOf} the referenced schema and null). Records with Bean Validation constraints are request
 * bodies ({@code RequestBodies}): their required fields are the constrained ones, as springdoc says.
 */
public class RecordResponseFields implements ModelConverter {

    private static final List<JsonInclude.Include> OMITTED_WHEN_EMPTY = List.of(JsonInclude.Include.NON_NULL,
            JsonInclude.Include.NON_ABSENT, JsonInclude.Include.NON_EMPTY, JsonInclude.Include.NON_DEFAULT);

    @Override
    @SuppressWarnings("rawtypes")
    public Schema resolve(AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
        Schema resolved = chain.hasNext() ? chain.next().resolve(type, context, chain) : null;
        if (resolved == null || type.getType() == null) {
            return resolved;
        }
        Class<?> raw = Json.mapper().constructType(type.getType()).getRawClass();
        if (raw == null || !raw.isRecord() || isRequestBody(raw)) {
            return resolved;
        }
        Schema model = resolved;
        if (resolved.get$ref() != null) {
            String ref = resolved.get$ref();
            model = context.getDefinedModels().get(ref.substring(ref.lastIndexOf('/') + 1));
        }
        if (model == null || model.getProperties() == null) {
            return resolved;
        }
        boolean recordOmitsEmpty = omitsEmpty(raw.getAnnotation(JsonInclude.class));
        for (RecordComponent component : raw.getRecordComponents()) {
            Field field = field(raw, component.getName());
            String name = jsonName(component, field);
            if (!model.getProperties().containsKey(name)) {
                continue;
            }
            JsonInclude include = field == null ? null : field.getAnnotation(JsonInclude.class);
            boolean optional = include != null ? omitsEmpty(include) : recordOmitsEmpty;
            List<?> required = model.getRequired();
            if (!optional && (required == null || !required.contains(name))) {
                model.addRequiredItem(name);
            }
            if (component.getAnnotatedType().isAnnotationPresent(Nullable.class)) {
                model.getProperties().put(name, nullable((Schema<?>) model.getProperties().get(name)));
            }
        }
        return resolved;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema<?> nullable(Schema<?> property) {
        if (property.get$ref() != null) {
            Schema choice = new Schema<>().specVersion(SpecVersion.V31);
            choice.setOneOf(new ArrayList<>(List.of(property, new Schema<>().specVersion(SpecVersion.V31).typesItem("null"))));
            return choice;
        }
        Set<String> types = property.getTypes() != null ? new LinkedHashSet<>(property.getTypes()) : new LinkedHashSet<>();
        if (types.isEmpty() && property.getType() != null) {
            types.add(property.getType());
        }
        if (!types.isEmpty()) {
            types.add("null");
            property.setTypes(types);
        }
        return property;
    }

    private static boolean isRequestBody(Class<?> record) {
        for (RecordComponent component : record.getRecordComponents()) {
            Field field = field(record, component.getName());
            if (field != null && constrained(field.getAnnotations())) {
                return true;
            }
        }
        return false;
    }

    private static boolean constrained(Annotation[] annotations) {
        for (Annotation annotation : annotations) {
            if (annotation.annotationType().getPackageName().equals("jakarta.validation.constraints")) {
                return true;
            }
        }
        return false;
    }

    private static boolean omitsEmpty(JsonInclude include) {
        return include != null && OMITTED_WHEN_EMPTY.contains(include.value());
    }

    private static String jsonName(RecordComponent component, Field field) {
        JsonProperty property = field == null ? null : field.getAnnotation(JsonProperty.class);
        return property != null && !property.value().isEmpty() ? property.value() : component.getName();
    }

    private static Field field(Class<?> record, String name) {
        try {
            return record.getDeclaredField(name);
        } catch (NoSuchFieldException e) {
            return null;
        }
    }
}

package dev.visibility.platform.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.media.Schema;
import jakarta.validation.constraints.NotBlank;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The response records' schemas say what our JSON carries (issue 23; spec 2.1: required fields,
 * nullable ones): every component is written, null included, unless {@code @JsonInclude(NON_NULL)};
 * JSpecify {@code @Nullable} allows null; a validated request body keeps its constraints' reading.
 */
class RecordResponseFieldsTest {

    record Inner(String value) {
    }

    record Answer(String id, @JsonProperty("started_at") @Nullable String startedAt, int count,
            @JsonInclude(JsonInclude.Include.NON_NULL) String context, @Nullable Inner pick, List<Inner> items) {
    }

    record Request(@NotBlank String title, String description) {
    }

    private static Map<String, Schema> resolve(Class<?> type) {
        ModelConverters converters = new ModelConverters(true);
        converters.addConverter(new RecordResponseFields());
        return converters.readAll(type);
    }

    @Test
    void everyWrittenComponentIsRequiredAndNullableOnesAllowNull() {
        Schema<?> answer = resolve(Answer.class).get("Answer");
        assertThat(answer.getRequired()).containsExactlyInAnyOrder("id", "started_at", "count", "pick", "items");
        assertThat(answer.getProperties().get("started_at").getTypes()).containsExactlyInAnyOrder("string", "null");
        assertThat(answer.getProperties().get("id").getTypes()).containsExactly("string");
        Schema<?> pick = answer.getProperties().get("pick");
        assertThat(pick.getOneOf()).hasSize(2);
        assertThat(pick.getOneOf().get(0).get$ref()).endsWith("/Inner");
        assertThat(pick.getOneOf().get(1).getTypes()).containsExactly("null");
        assertThat(resolve(Answer.class).get("Inner").getRequired()).containsExactly("value");
    }

    @Test
    void aValidatedRequestBodyKeepsOnlyItsConstrainedFieldsRequired() {
        Schema<?> request = resolve(Request.class).get("Request");
        assertThat(request.getRequired()).containsExactly("title");
    }
}

package dev.visibility.platform.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;

import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.error.InvalidRequest;
import jakarta.validation.Validation;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Spec 7 and DESIGN.md "Errors": every bad request body is a 400 invalid_request naming its field. */
class RequestBodiesTest {

    record Body(@NotBlank @Size(max = 10) String title, @NotNull Boolean blocked,
            List<@Pattern(regexp = "[a-z]+", message = "must hold lowercase names") String> tags,
            UUID assignedTo) implements RequestBodies.Checked {

        @Override
        public void check() {
            if ("forbidden".equals(title)) {
                throw new InvalidRequest("title and blocked disagree");
            }
        }
    }

    private final JsonMapper json = JsonMapper.builder().build();
    private final RequestBodies bodies = new RequestBodies(json, Validation.byDefaultProvider().configure()
            .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory().getValidator());

    private Body read(String body) {
        return bodies.read(body == null ? null : json.readTree(body), Body.class);
    }

    private static void assertRefused(Runnable read, String field, String message) {
        assertThatThrownBy(read::run).isInstanceOfSatisfying(InvalidParameter.class, e -> {
            assertThat(e.parameter()).isEqualTo(field);
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    @Test
    void aValidBodyIsRead() {
        Body absent = read("{\"title\": \"Fix it\", \"blocked\": false}");
        assertThat(absent.title()).isEqualTo("Fix it");
        assertThat(absent.blocked()).isFalse();
        assertThat(absent.assignedTo()).isNull();
        UUID member = UUID.randomUUID();
        assertThat(read("{\"title\": \"x\", \"blocked\": true, \"assignedTo\": \"" + member + "\", \"tags\": [\"a\"]}"))
                .isEqualTo(new Body("x", true, List.of("a"), member));
    }

    @Test
    void aBodyThatIsNotAnObjectIsRefused() {
        for (String body : new String[] {null, "[]", "\"text\"", "5"}) {
            assertThatThrownBy(() -> read(body)).isInstanceOf(InvalidRequest.class)
                    .hasMessage("The request body must be a JSON object");
        }
    }

    @Test
    void anUnknownFieldIsRefusedNamingTheAllowedOnes() {
        assertRefused(() -> read("{\"title\": \"x\", \"blocked\": true, \"stauts\": 1}"), "stauts",
                "Field 'stauts' is not known; allowed fields: assignedTo, blocked, tags, title");
    }

    @Test
    void aValueOfAnotherJsonTypeIsRefusedNotConverted() {
        assertRefused(() -> read("{\"title\": 5, \"blocked\": true}"), "title", "Field 'title' has the wrong type");
        assertRefused(() -> read("{\"title\": \"x\", \"blocked\": \"yes\"}"), "blocked", "Field 'blocked' has the wrong type");
        assertRefused(() -> read("{\"title\": \"x\", \"blocked\": 1}"), "blocked", "Field 'blocked' has the wrong type");
        assertRefused(() -> read("{\"title\": \"x\", \"blocked\": true, \"assignedTo\": \"not-a-uuid\"}"), "assignedTo",
                "Field 'assignedTo' has the wrong type");
    }

    @Test
    void aBrokenConstraintIsRefusedNamingItsField() {
        assertRefused(() -> read("{\"blocked\": true}"), "title", "Field 'title' must not be blank");
        assertRefused(() -> read("{\"title\": \"   \", \"blocked\": true}"), "title", "Field 'title' must not be blank");
        assertRefused(() -> read("{\"title\": \"much too long\", \"blocked\": true}"), "title",
                "Field 'title' size must be between 0 and 10");
        assertRefused(() -> read("{\"title\": \"x\"}"), "blocked", "Field 'blocked' must not be null");
        assertRefused(() -> read("{\"title\": \"x\", \"blocked\": true, \"tags\": [\"ok\", \"NOT\"]}"), "tags",
                "Field 'tags' must hold lowercase names");
    }

    @Test
    void theRecordsOwnRulesRunLast() {
        assertThatThrownBy(() -> read("{\"title\": \"forbidden\", \"blocked\": true}")).isInstanceOf(InvalidRequest.class)
                .hasMessage("title and blocked disagree");
    }
}

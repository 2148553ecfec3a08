package dev.visibility.platform.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import dev.visibility.platform.error.InvalidParameter;
import org.junit.jupiter.api.Test;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

/** DESIGN.md "Query parameter names": a known parameter with a bad value is a 400 naming it and what it accepts. */
class QueryParamsTest {

    private static QueryParams params(String... pairs) {
        MultiValueMap<String, String> map = new LinkedMultiValueMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.add(pairs[i], pairs[i + 1]);
        }
        return QueryParams.of(map);
    }

    @Test
    void windowDaysAcceptsOnlyListedValues() {
        assertThat(params().intOneOf("days", List.of(30, 90), 30)).isEqualTo(30);
        assertThat(params("days", "90").intOneOf("days", List.of(30, 90), 30)).isEqualTo(90);
        assertThatThrownBy(() -> params("days", "7").intOneOf("days", List.of(30, 90), 30))
                .isInstanceOf(InvalidParameter.class)
                .hasMessage("Parameter 'days' must be one of 30, 90");
        assertThatThrownBy(() -> params("days", "").intOneOf("days", List.of(30, 90), 30))
                .hasMessage("Parameter 'days' must be one of 30, 90");
    }

    @Test
    void pageSizeRangeNamesBounds() {
        assertThat(params("pageSize", "100").intInRange("pageSize", 1, 100, 25)).isEqualTo(100);
        for (String bad : List.of("0", "101", "abc", "1.5", "99999999999")) {
            assertThatThrownBy(() -> params("pageSize", bad).intInRange("pageSize", 1, 100, 25))
                    .isInstanceOfSatisfying(InvalidParameter.class, e -> assertThat(e.parameter()).isEqualTo("pageSize"))
                    .hasMessage("Parameter 'pageSize' must be an integer from 1 to 100");
        }
    }

    @Test
    void enumerationListsAllowedValues() {
        List<String> statuses = List.of("suggested", "accepted", "live", "archived");
        assertThat(params().oneOf("status", statuses, null)).isNull();
        assertThat(params("status", "live").oneOf("status", statuses, null)).isEqualTo("live");
        assertThatThrownBy(() -> params("status", "LIVE").oneOf("status", statuses, null))
                .hasMessage("Parameter 'status' must be one of suggested, accepted, live, archived");
    }

    @Test
    void booleansAndUuids() {
        assertThat(params("impactWindows", "TRUE").bool("impactWindows", false)).isTrue();
        assertThatThrownBy(() -> params("impactWindows", "yes").bool("impactWindows", false))
                .hasMessage("Parameter 'impactWindows' must be true or false");
        assertThatThrownBy(() -> params().requiredUuid("promptId"))
                .hasMessage("Parameter 'promptId' is required");
        assertThatThrownBy(() -> params("promptId", "123").requiredUuid("promptId"))
                .hasMessage("Parameter 'promptId' must be a UUID");
        assertThat(params("promptId", "0f8fad5b-d9cb-469f-a165-70867728950e").requiredUuid("promptId").toString())
                .isEqualTo("0f8fad5b-d9cb-469f-a165-70867728950e");
    }

    @Test
    void unknownParametersAreIgnored() {
        assertThat(params("whatever", "x").intInRange("limit", 1, 100, 50)).isEqualTo(50);
    }
}

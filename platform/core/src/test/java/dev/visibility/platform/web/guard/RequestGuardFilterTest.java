package dev.visibility.platform.web.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The servlet guard reads the query the way Tomcat will, but refuses what Tomcat's parameter parsing
 * would throw on later (a 500 from Spring Security's sign-in pages, found by HostileInputSystemTest):
 * malformed escapes and bytes that are not UTF-8 (spec 7: a 400 in the error shape instead).
 */
class RequestGuardFilterTest {

    @Test
    void validUtf8EscapesAndRawCharactersDecode() {
        assertThat(RequestGuardFilter.decodeStrictly("%C3%A9%E2%82%AC")).isEqualTo("é€");
        assertThat(RequestGuardFilter.decodeStrictly("a+b-c_d.e~f")).isEqualTo("a+b-c_d.e~f");
        assertThat(RequestGuardFilter.decode("days=30&status=done&status=%41")).isEqualTo(Map.of(
                "days", List.of("30"), "status", List.of("done", "A")));
    }

    @Test
    void bytesThatAreNotUtf8AndMalformedEscapesAreRefused() {
        for (String bad : List.of("%FF%FE", "%C3", "%E2%82", "%ED%A0%80", "%4", "%zz", "abc%")) {
            assertThatThrownBy(() -> RequestGuardFilter.decodeStrictly(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> RequestGuardFilter.decode("result=%FF%FE")).isInstanceOf(IllegalArgumentException.class);
    }
}

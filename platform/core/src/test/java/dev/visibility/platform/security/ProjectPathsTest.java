package dev.visibility.platform.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Issue 15: the project of a path is read decoded, and only the canonical spelling of a path is accepted. */
class ProjectPathsTest {

    private static final String P = "9197b499-0b8e-4d8e-9a55-2f8f5c6f7a10";

    @Test
    void projectIdIsReadFromTheDecodedSegments() {
        assertThat(ProjectPaths.projectIdOf("/api/v2/projects/" + P + "/usage")).isEqualTo(P);
        assertThat(ProjectPaths.projectIdOf("/api/v2/projects/" + P)).isEqualTo(P);
        // the spellings that crossed projects before: the router decodes, so the check decodes too
        assertThat(ProjectPaths.projectIdOf("/api/v2/%70rojects/" + P + "/usage")).isEqualTo(P);
        assertThat(ProjectPaths.projectIdOf("/%61pi/%762/projects/" + P + "/usage")).isEqualTo(P);
        assertThat(ProjectPaths.projectIdOf("/api/v2/projects;x=1/" + P + "/usage")).isEqualTo(P);
        assertThat(ProjectPaths.projectIdOf("/api/v2/projects/%39197b499-0b8e-4d8e-9a55-2f8f5c6f7a10/usage")).isEqualTo(P);
        assertThat(ProjectPaths.projectIdOf("/api/v2/account/projects/" + P)).isNull();
        assertThat(ProjectPaths.projectIdOf("/api/v2/projects")).isNull();
        assertThat(ProjectPaths.projectIdOf("/actuator/health")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/api/v2/projects/" + P + "/usage", "/api/v2/projects/" + P + "/actions/list",
            "/.well-known/oauth-protected-resource/api/mcp", "/api/v2/projects/" + P + "/visibility/responses/a%20b",
            "/api/v2/projects/" + P + "/visibility/responses/%C3%A9t%C3%A9", "/api/v2/projects/" + P + "/usage/",
            "/api/v2/projects/" + P + "/x%25y"})
    void canonicalPathsPass(String path) {
        assertThat(ProjectPaths.nonCanonical(path)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "api/v2", "/api/v2/%70rojects/" + P + "/usage", "/%61pi/v2/projects/" + P + "/usage",
            "/api/%762/projects/" + P + "/usage", "/api/v2/projects/" + P + "%2Fusage", "/api/v2/projects/" + P + "%2fusage",
            "/api/v2//projects/" + P + "/usage", "//api/v2/projects/" + P + "/usage", "//",
            "/api/v2/./projects/" + P + "/usage", "/api/v2/x/../projects/" + P + "/usage", "/api/v2/projects/" + P + "/..",
            "/api/v2/projects;x=1/" + P + "/usage", "/api/v2/projects/" + P + "/usage;jsessionid=1",
            "/api/v2/projects/" + P + "%00/usage", "/api/v2/projects/" + P + "/usage%0a", "/api/v2/projects/" + P + "/%2e%2e",
            "/api/v2/projects/" + P + "/usage%", "/api/v2/projects/" + P + "/usage%4", "/api/v2/projects/" + P + "/usage%zz",
            "/api/v2/projects/" + P + "\\usage", "/api/v2/projects/" + P + "/us\u00e9", "/api/v2/projects/" + P + "/a b",
            "/api/v2/projects/%3B/usage", "/api/v2/projects/" + P + "/%7e"})
    void everyOtherSpellingIsRefused(String path) {
        assertThat(ProjectPaths.nonCanonical(path)).isNotNull();
    }
}

package dev.visibility.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

import dev.visibility.gateway.routing.ApiRoute;
import dev.visibility.gateway.routing.RouteTable;
import org.junit.jupiter.api.Test;

/**
 * Issue 15, spec 5.4 ("a key cannot read another project"): every route of the gateway's route
 * table × {the key's own project, the other demo project, an unknown project} × every spelling of
 * its path × its method and the other methods, through the gateway with the own project's
 * all-scopes key. Only the own project in the canonical spelling is ever 2xx; a foreign or unknown
 * project is 404; a spelling that is not canonical is 400; a known path with another method is
 * 405 with {@code Allow}; every refusal carries the error body of spec 7, and nothing answers 500.
 * The table is read from {@link RouteTable}, so a new route is covered without editing this test.
 */
class IsolationMatrixSystemTest extends SystemTest {

    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");
    private static final String PROJECT_PREFIX = "/api/v2/projects/{projectId}";
    /** Services that no system test starts: the gateway answers 503 {@code unavailable} for their routes. */
    private static final Set<String> DOWN = Set.of(RouteTable.OUTCOMES, RouteTable.TRAFFIC, RouteTable.AGENTS, RouteTable.MCP);

    /** A spelling of {@code /api/v2/projects/<id><rest>}; null for the canonical one. */
    private record Spelling(String name, BiFunction<String, String, String> spell) {
    }

    private static final List<Spelling> SPELLINGS = List.of(
            new Spelling("canonical", (id, rest) -> "/api/v2/projects/" + id + rest),
            new Spelling("encoded letters", (id, rest) -> "/api/v2/%70rojects/" + id + rest),
            new Spelling("upper-case id", (id, rest) -> "/api/v2/projects/" + id.toUpperCase(Locale.ROOT) + rest),
            new Spelling("%2F", (id, rest) -> "/api/v2/projects/" + id + "%2F" + rest.substring(1)),
            new Spelling("//", (id, rest) -> "/api/v2//projects/" + id + rest),
            new Spelling("/./", (id, rest) -> "/api/v2/./projects/" + id + rest),
            new Spelling("/x/../", (id, rest) -> "/api/v2/projects/x/../" + id + rest),
            new Spelling(";x=1", (id, rest) -> "/api/v2/projects/" + id + ";x=1" + rest),
            new Spelling("%61pi", (id, rest) -> "/%61pi/v2/projects/" + id + rest),
            new Spelling("%762", (id, rest) -> "/api/%762/projects/" + id + rest));

    /** Spellings of a path outside the project routes ({@code /a/b/...}). */
    private static final List<BiFunction<String, String, String>> OTHER_SPELLINGS = List.of(
            (first, rest) -> "/%" + Integer.toHexString(first.charAt(0)) + first.substring(1) + rest,
            (first, rest) -> "//" + first + rest,
            (first, rest) -> "/" + first + "/." + rest,
            (first, rest) -> "/" + first + "/x/.." + rest,
            (first, rest) -> "/" + first + ";x=1" + rest,
            (first, rest) -> "/" + first + rest.replaceFirst("/", "%2F"));

    @Test
    void onlyTheOwnProjectInItsCanonicalSpellingIsEverServed() {
        Map<String, String> projects = new LinkedHashMap<>();
        projects.put("own", project());
        projects.put("other demo project", otherProject());
        projects.put("unknown", UUID.randomUUID().toString());
        List<String> failures = new ArrayList<>();
        int cells = 0;
        int routes = 0;
        for (ApiRoute route : RouteTable.ROUTES) {
            if (!route.path().startsWith(PROJECT_PREFIX)) {
                continue;
            }
            routes++;
            String rest = concrete(route.path().substring(PROJECT_PREFIX.length()));
            for (Map.Entry<String, String> project : projects.entrySet()) {
                for (Spelling spelling : SPELLINGS) {
                    String target = spelling.spell().apply(project.getValue(), rest);
                    for (String method : methods(route)) {
                        cells++;
                        RawHttp.Answer answer = send(method, target);
                        String cell = route.id() + " | " + project.getKey() + " | " + spelling.name() + " | " + method + " "
                                + target + " -> " + answer.status() + " " + answer.body();
                        check(failures, cell, answer, expected(route, project.getKey(), spelling.name(), method,
                                "/api/v2/projects/" + project.getValue() + rest));
                    }
                }
            }
        }
        System.out.printf("isolation matrix: %d project routes, %d requests%n", routes, cells);
        assertThat(routes).isEqualTo((int) RouteTable.ROUTES.stream().filter(r -> r.path().startsWith(PROJECT_PREFIX)).count());
        assertThat(failures).as("%d of %d cells", failures.size(), cells).isEmpty();
    }

    @Test
    void routesOutsideTheProjectsAreRefusedInEveryOtherSpelling() {
        List<String> failures = new ArrayList<>();
        int cells = 0;
        for (ApiRoute route : RouteTable.ROUTES) {
            if (route.path().startsWith(PROJECT_PREFIX)) {
                continue;
            }
            String path = concrete(route.path().replace("/**", "/projects"));
            String first = path.substring(1, path.indexOf('/', 1) > 0 ? path.indexOf('/', 1) : path.length());
            String rest = path.substring(1 + first.length());
            if (rest.isEmpty()) {
                rest = "/x";
            }
            for (BiFunction<String, String, String> spelling : OTHER_SPELLINGS) {
                String target = spelling.apply(first, rest);
                for (String method : METHODS) {
                    cells++;
                    RawHttp.Answer answer = send(method, target);
                    String cell = route.id() + " | " + method + " " + target + " -> " + answer.status() + " " + answer.body();
                    check(failures, cell, answer, new Expected(Set.of(400), false));
                }
            }
        }
        System.out.printf("isolation matrix outside projects: %d requests%n", cells);
        assertThat(failures).as("%d of %d cells", failures.size(), cells).isEmpty();
    }

    /** What a cell may answer, and whether 2xx is among it. */
    private record Expected(Set<Integer> statuses, boolean mayServe) {

        static Expected anyOf(boolean mayServe, Integer... statuses) {
            return new Expected(Set.of(statuses), mayServe);
        }
    }

    private static Expected expected(ApiRoute route, String project, String spelling, String method, String canonicalPath) {
        if (!spelling.equals("canonical") && !spelling.equals("upper-case id")) {
            return Expected.anyOf(false, 400);
        }
        if (!project.equals("own") || spelling.equals("upper-case id")) {
            // another project's or an unknown id: as if nothing were there, whatever the method (spec 5.4)
            return Expected.anyOf(false, 404);
        }
        Set<String> allowed = allowedMethods(canonicalPath);
        if (!allowed.contains(method)) {
            return Expected.anyOf(false, 405);
        }
        // the own project: served, or refused for what the request is (bad body, unknown id, ...),
        // or 503 while the route's service is not running; never a 500
        Set<Integer> statuses = new LinkedHashSet<>(List.of(400, 403, 404, 409, 413, 415, 422));
        if (DOWN.contains(route.service())) {
            statuses.add(503);
        }
        return new Expected(statuses, true);
    }

    private static void check(List<String> failures, String cell, RawHttp.Answer answer, Expected expected) {
        int status = answer.status();
        if (status >= 200 && status < 300) {
            if (!expected.mayServe()) {
                failures.add("SERVED " + cell);
            }
            return;
        }
        if (!expected.statuses().contains(status)) {
            failures.add("expected " + expected.statuses() + ": " + cell);
        } else if (!answer.hasErrorShape()) {
            failures.add("no error body: " + cell);
        } else if (status == 405 && answer.header("Allow") == null) {
            failures.add("405 without Allow: " + cell);
        }
    }

    private static RawHttp.Answer send(String method, String target) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + key());
        byte[] body = null;
        if (!method.equals("GET") && !method.equals("DELETE")) {
            headers.put("Content-Type", "application/json");
            body = "{}".getBytes(StandardCharsets.UTF_8);
        }
        return RawHttp.send(edge.domain.port(), method, target, headers, body);
    }

    /** The route's own method first, then the others. */
    private static List<String> methods(ApiRoute route) {
        List<String> methods = new ArrayList<>();
        methods.add(route.method().equals("*") ? "GET" : route.method());
        METHODS.stream().filter(m -> !methods.contains(m)).forEach(methods::add);
        return methods;
    }

    /** The methods that some route of the table accepts on this concrete path. */
    private static Set<String> allowedMethods(String path) {
        Set<String> methods = new LinkedHashSet<>();
        for (ApiRoute route : RouteTable.ROUTES) {
            String regex = Pattern.quote(route.path()).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q").replace("/**", "\\E(/.*)?\\Q");
            if (Pattern.matches(regex, path)) {
                methods.addAll(route.method().equals("*") ? METHODS : List.of(route.method()));
            }
        }
        return methods;
    }

    /** A path pattern with every variable other than the project replaced by a fresh id. */
    private static String concrete(String pattern) {
        return pattern.replaceAll("\\{[^}]+}", UUID.randomUUID().toString());
    }
}

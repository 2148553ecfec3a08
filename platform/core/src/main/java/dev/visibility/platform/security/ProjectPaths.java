package dev.visibility.platform.security;

import java.util.ArrayList;
import java.util.List;

import org.springframework.http.server.PathContainer;

/**
 * The project of a project-level path ({@code /api/v2/projects/{projectId}/...}, spec 5.4) and the
 * canonical-form rule that every request path must meet before it is routed (issue 15).
 * <p>
 * Routing decodes a path before it matches it, so the project check must read the decoded
 * segments too: {@code /api/v2/%70rojects/<other>/usage} routes exactly like
 * {@code /api/v2/projects/<other>/usage}. {@link #projectIdOf(String)} therefore decodes; and
 * {@link #nonCanonical(String)} refuses every spelling of a path that differs from its one
 * canonical form, so that no check can be fooled by a spelling it did not expect.
 */
public final class ProjectPaths {

    private static final List<String> PROJECT_PREFIX = List.of("api", "v2", "projects");

    /** ASCII characters that a path segment may only carry percent-encoded (RFC 3986, 3.3). */
    private static final String MUST_BE_ENCODED = " \"<>%?#[]^`{|}";

    private ProjectPaths() {
    }

    /**
     * The path's project id, decoded, or null when the path is not project-level. {@code rawPath}
     * is the path as it arrived (percent-encoded); matrix parameters ({@code ;x=1}) are not part of
     * a segment's value, exactly as the router sees it.
     */
    public static String projectIdOf(String rawPath) {
        List<String> segments = decodedSegments(rawPath);
        if (segments.size() < 4) {
            return null;
        }
        for (int i = 0; i < PROJECT_PREFIX.size(); i++) {
            if (!PROJECT_PREFIX.get(i).equals(segments.get(i))) {
                return null;
            }
        }
        return segments.get(3);
    }

    /** The decoded values of the path's segments, empty segments included, as the router matches them. */
    public static List<String> decodedSegments(String rawPath) {
        List<String> segments = new ArrayList<>();
        for (PathContainer.Element element : PathContainer.parsePath(rawPath).elements()) {
            if (element instanceof PathContainer.PathSegment segment) {
                segments.add(segment.valueToMatch());
            }
        }
        return segments;
    }

    /**
     * Why {@code rawPath} is not in canonical form, or null when it is. Canonical: it starts with
     * {@code /}; no empty segment ({@code //}), no {@code .} or {@code ..} segment, no {@code ;}
     * parameters, no backslash, only visible ASCII; and a percent-escape only where the character
     * cannot appear as it is (a space, {@code %}, {@code ?}, {@code #}, ..., or a non-ASCII byte),
     * never for a letter, digit, {@code -._~}, a delimiter such as {@code /} or a control character.
     */
    public static String nonCanonical(String rawPath) {
        if (rawPath == null || rawPath.isEmpty() || rawPath.charAt(0) != '/') {
            return "The path must start with /";
        }
        int segmentStart = 1;
        for (int i = 0; i < rawPath.length(); i++) {
            char c = rawPath.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                return "The path contains a character that must be percent-encoded";
            }
            if (c == ';') {
                return "The path must not carry ';' parameters";
            }
            if (c == '\\') {
                return "The path must not contain a backslash";
            }
            if (c == '%') {
                String problem = escapeProblem(rawPath, i);
                if (problem != null) {
                    return problem;
                }
                i += 2;
            } else if (c == '/' && i > 0) {
                String problem = segmentProblem(rawPath.substring(segmentStart, i), true);
                if (problem != null) {
                    return problem;
                }
                segmentStart = i + 1;
            }
        }
        return segmentProblem(rawPath.substring(segmentStart), false);
    }

    private static String segmentProblem(String segment, boolean followedBySlash) {
        if (segment.isEmpty() && followedBySlash) {
            return "The path must not contain an empty segment (//)";
        }
        if (segment.equals(".") || segment.equals("..")) {
            return "The path must not contain '.' or '..' segments";
        }
        return null;
    }

    private static String escapeProblem(String rawPath, int at) {
        if (at + 2 >= rawPath.length() || hex(rawPath.charAt(at + 1)) < 0 || hex(rawPath.charAt(at + 2)) < 0) {
            return "The path contains a malformed percent-escape";
        }
        int value = hex(rawPath.charAt(at + 1)) * 16 + hex(rawPath.charAt(at + 2));
        if (value < 0x20 || value == 0x7f) {
            return "The path must not contain control characters";
        }
        if (value >= 0x80 || MUST_BE_ENCODED.indexOf(value) >= 0) {
            return null;
        }
        return "The path must not percent-encode '" + (char) value + "'; send it as it is";
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}

package dev.visibility.platform.security;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Finds the {@code projectId} of a project-level path ({@code /api/v2/projects/{projectId}/...}, spec 5.4). */
public final class ProjectPaths {

    private static final Pattern PROJECT_PATH = Pattern.compile("^/api/v2/projects/([^/]+)(/.*)?$");

    private ProjectPaths() {
    }

    /** The path's project id, or null when the path is not project-level. */
    public static String projectIdOf(String path) {
        Matcher matcher = PROJECT_PATH.matcher(path);
        return matcher.matches() ? matcher.group(1) : null;
    }
}

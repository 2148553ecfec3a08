package dev.visibility.traffic.hits;

import java.util.ArrayList;
import java.util.List;

/**
 * The scopes a hit counts in: the whole project, its hostname, and each path prefix of its path at
 * segment boundaries ({@code /docs/api/auth} lies in {@code /}, {@code /docs}, {@code /docs/api} and
 * {@code /docs/api/auth}). Empty segments, a trailing slash, a query string and a fragment make no
 * other path; paths are case-sensitive. Prefixes go down {@value #MAX_SEGMENTS} segments: a deeper
 * path counts in its ancestors up to that depth.
 */
public final class Scopes {

    /** The deepest prefix kept; E4 refuses a deeper {@code pathPrefix}. */
    public static final int MAX_SEGMENTS = 16;
    /** The hostname of the project-wide scope. */
    public static final String PROJECT = "";
    public static final String ROOT = "/";

    private Scopes() {
    }

    /** The path's segments, without empty ones, query or fragment. */
    public static List<String> segments(String path) {
        int end = path.length();
        int query = path.indexOf('?');
        int fragment = path.indexOf('#');
        if (query >= 0) {
            end = query;
        }
        if (fragment >= 0 && fragment < end) {
            end = fragment;
        }
        List<String> segments = new ArrayList<>();
        int start = 0;
        while (start < end) {
            int slash = path.indexOf('/', start);
            int stop = slash < 0 || slash > end ? end : slash;
            if (stop > start) {
                segments.add(path.substring(start, stop));
            }
            start = stop + 1;
        }
        return segments;
    }

    /** {@code /}, then each prefix of the path down to {@link #MAX_SEGMENTS} segments. */
    public static List<String> prefixes(String path) {
        List<String> segments = segments(path);
        int depth = Math.min(segments.size(), MAX_SEGMENTS);
        List<String> prefixes = new ArrayList<>(depth + 1);
        prefixes.add(ROOT);
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            prefix.append('/').append(segments.get(i));
            prefixes.add(prefix.toString());
        }
        return prefixes;
    }

    /** The rollup prefix of a {@code pathPrefix} parameter: its segments joined; null when it is deeper than kept. */
    public static String normalizedPrefix(String pathPrefix) {
        List<String> segments = segments(pathPrefix);
        if (segments.size() > MAX_SEGMENTS) {
            return null;
        }
        return segments.isEmpty() ? ROOT : "/" + String.join("/", segments);
    }
}

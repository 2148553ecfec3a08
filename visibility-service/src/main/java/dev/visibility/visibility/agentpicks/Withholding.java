package dev.visibility.visibility.agentpicks;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.springframework.stereotype.Component;

/**
 * E1 rule 4, applied when reading (the raw facts stay stored):
 * <ul>
 * <li>request and job text, raw commands, error text: never shown; request and job give their
 * {@code *_withheld} flags, a command gives {@code command_withheld};</li>
 * <li>search terms and file paths (and any recorded free text of an item): withheld, {@code queries}
 * empty and {@code path} null, with {@code text_withheld};</li>
 * <li>a URL shows only its HTTP origin ({@code scheme://host[:port]}); anything that is not an
 * http or https URL with a host shows as null;</li>
 * <li>packages (and runtime tool names) are kept only when they are in the configured tool
 * catalog, compared without a version suffix and case-insensitively; the rest is withheld with
 * {@code packages_withheld}, {@code tool_packages_withheld} or {@code other_tools_withheld};</li>
 * <li>{@code source} is shown only when it is one of {@link #SOURCES} or a catalog name, and
 * {@code method} only when it is an HTTP method.</li>
 * </ul>
 */
@Component
public class Withholding {

    /** The evidence source kinds E1 shows as they are. */
    public static final Set<String> SOURCES = Set.of("web", "search_engine", "registry", "repository", "documentation",
            "filesystem", "shell", "mcp", "cache");
    static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    private final Set<String> catalog;

    public Withholding(AgentPicksProperties properties) {
        this.catalog = properties.catalog();
    }

    /** The catalog names among {@code names}, without version suffix, in their order, each once. */
    public Filtered catalogOnly(List<String> names) {
        if (names == null || names.isEmpty()) {
            return new Filtered(List.of(), false);
        }
        List<String> kept = new ArrayList<>();
        boolean withheld = false;
        for (String name : names) {
            String bare = bareName(name);
            if (bare != null && catalog.contains(bare)) {
                if (!kept.contains(bare)) {
                    kept.add(bare);
                }
            } else {
                withheld = true;
            }
        }
        return new Filtered(List.copyOf(kept), withheld);
    }

    public String source(String source) {
        if (source == null) {
            return null;
        }
        String normalized = source.trim().toLowerCase(Locale.ROOT);
        return SOURCES.contains(normalized) || catalog.contains(normalized) ? normalized : null;
    }

    public static String method(String method) {
        if (method == null) {
            return null;
        }
        String upper = method.trim().toUpperCase(Locale.ROOT);
        return METHODS.contains(upper) ? upper : null;
    }

    /** The HTTP origin of a URL, or null when it has none. */
    public static String origin(String url) {
        if (url == null || url.isBlank()) {
            return null;
        }
        try {
            URI uri = new URI(url.trim());
            String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
            String host = uri.getHost();
            if (!("http".equals(scheme) || "https".equals(scheme)) || host == null || host.isEmpty()) {
                return null;
            }
            int port = uri.getPort();
            boolean defaultPort = port == -1 || ("http".equals(scheme) && port == 80) || ("https".equals(scheme) && port == 443);
            return scheme + "://" + host.toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** {@code name@1.2.3} → {@code name}, {@code @scope/name@^2} → {@code @scope/name}, lower case. */
    static String bareName(String name) {
        if (name == null) {
            return null;
        }
        String trimmed = name.trim().toLowerCase(Locale.ROOT);
        int at = trimmed.indexOf('@', trimmed.startsWith("@") ? 1 : 0);
        String bare = at < 0 ? trimmed : trimmed.substring(0, at);
        return bare.isEmpty() ? null : bare;
    }

    public record Filtered(List<String> kept, boolean withheld) {
    }
}

package dev.visibility.platform.query;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.visibility.platform.error.InvalidParameter;
import org.springframework.util.MultiValueMap;

/**
 * Reads query parameters the way DESIGN.md fixes: unknown parameters are ignored; a known one
 * with a bad value is a 400 that names the parameter and says what it accepts. An empty value
 * ({@code ?days=}) counts as a bad value, not as absent.
 */
public final class QueryParams {

    private final MultiValueMap<String, String> params;

    private QueryParams(MultiValueMap<String, String> params) {
        this.params = params;
    }

    public static QueryParams of(MultiValueMap<String, String> params) {
        return new QueryParams(params);
    }

    /** The raw value, or null when the parameter is absent. */
    public String raw(String name) {
        return params.getFirst(name);
    }

    public String required(String name) {
        String value = raw(name);
        if (value == null || value.isBlank()) {
            throw new InvalidParameter(name, "Parameter '" + name + "' is required");
        }
        return value;
    }

    public int intInRange(String name, int min, int max, int defaultValue) {
        String value = raw(name);
        if (value == null) {
            return defaultValue;
        }
        Integer parsed = parseInt(value);
        if (parsed == null || parsed < min || parsed > max) {
            throw new InvalidParameter(name, "Parameter '" + name + "' must be an integer from " + min + " to " + max);
        }
        return parsed;
    }

    /** An integer of at least {@code min}, with no upper bound (for example a page number). */
    public int intAtLeast(String name, int min, int defaultValue) {
        String value = raw(name);
        if (value == null) {
            return defaultValue;
        }
        Integer parsed = parseInt(value);
        if (parsed == null || parsed < min) {
            throw new InvalidParameter(name, "Parameter '" + name + "' must be an integer of at least " + min);
        }
        return parsed;
    }

    public int intOneOf(String name, Collection<Integer> allowed, int defaultValue) {
        String value = raw(name);
        if (value == null) {
            return defaultValue;
        }
        Integer parsed = parseInt(value);
        if (parsed == null || !allowed.contains(parsed)) {
            throw new InvalidParameter(name, "Parameter '" + name + "' must be one of " + join(allowed));
        }
        return parsed;
    }

    /** One of the allowed values, compared exactly; {@code defaultValue} (may be null) when absent. */
    public String oneOf(String name, Collection<String> allowed, String defaultValue) {
        String value = raw(name);
        if (value == null) {
            return defaultValue;
        }
        if (!allowed.contains(value)) {
            throw new InvalidParameter(name, "Parameter '" + name + "' must be one of " + join(allowed));
        }
        return value;
    }

    public boolean bool(String name, boolean defaultValue) {
        String value = raw(name);
        if (value == null) {
            return defaultValue;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new InvalidParameter(name, "Parameter '" + name + "' must be true or false");
        };
    }

    public UUID uuid(String name) {
        String value = raw(name);
        return value == null ? null : parseUuid(name, value);
    }

    public UUID requiredUuid(String name) {
        return parseUuid(name, required(name));
    }

    /** A free-text value of at most {@code maxLength} characters that matches {@code pattern} when one is given. */
    public String text(String name, int maxLength, Pattern pattern, String patternDescription) {
        String value = raw(name);
        if (value == null) {
            return null;
        }
        if (value.isEmpty() || value.length() > maxLength) {
            throw new InvalidParameter(name, "Parameter '" + name + "' must have 1 to " + maxLength + " characters");
        }
        if (pattern != null && !pattern.matcher(value).matches()) {
            throw new InvalidParameter(name, "Parameter '" + name + "' must " + patternDescription);
        }
        return value;
    }

    /** A path segment that must be a UUID (spec 4: ids are strings in uuid format); anything else is a 400. */
    public static UUID pathUuid(String name, String value) {
        return parseUuid(name, value);
    }

    private static UUID parseUuid(String name, String value) {
        if (value.length() == 36) {
            try {
                UUID uuid = UUID.fromString(value);
                if (uuid.toString().equalsIgnoreCase(value)) {
                    return uuid;
                }
            } catch (IllegalArgumentException ignored) {
                // reported below
            }
        }
        throw new InvalidParameter(name, "Parameter '" + name + "' must be a UUID");
    }

    private static Integer parseInt(String value) {
        if (value.isEmpty() || value.length() > 10) {
            return null;
        }
        try {
            return Integer.valueOf(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String join(Collection<?> allowed) {
        List<String> values = allowed.stream().map(String::valueOf).toList();
        return values.stream().collect(Collectors.joining(", "));
    }
}

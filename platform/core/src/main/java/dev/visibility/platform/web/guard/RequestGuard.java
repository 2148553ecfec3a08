package dev.visibility.platform.web.guard;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.visibility.platform.error.ApiException;
import dev.visibility.platform.error.ErrorCode;
import dev.visibility.platform.error.ErrorMapper;
import dev.visibility.platform.error.InvalidParameter;
import org.springframework.http.HttpHeaders;

/**
 * What every request must be before any handler sees it (issue 15), shared by the WebFlux and the
 * servlet filter: a known method (else 405 with {@code Allow}), query parameters without control
 * characters (else 400 naming the parameter), and a declared body no larger than the limit (else
 * 413). Bodies without a declared length are bounded where they are read (the codecs' limit).
 */
public final class RequestGuard {

    /** The methods this API knows; {@code TRACE}, {@code CONNECT} and invented ones are refused. */
    public static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
    public static final String ALLOW = "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT";

    private RequestGuard() {
    }

    /** The refusal of this request, or null when it may go on. */
    public static ApiException refusal(String method, Map<String, List<String>> decodedQuery, long contentLength,
            long maxBodyBytes) {
        if (!METHODS.contains(method)) {
            return new ApiException(ErrorCode.METHOD_NOT_ALLOWED, 405, ErrorMapper.defaultMessage(405), null,
                    Map.of(HttpHeaders.ALLOW, ALLOW));
        }
        for (Map.Entry<String, List<String>> parameter : decodedQuery.entrySet()) {
            if (hasControlCharacter(parameter.getKey())) {
                return new InvalidParameter(printable(parameter.getKey()),
                        "A query parameter name contains a control character");
            }
            for (String value : parameter.getValue()) {
                if (value != null && hasControlCharacter(value)) {
                    return new InvalidParameter(parameter.getKey(),
                            "Parameter '" + printable(parameter.getKey()) + "' must not contain control characters");
                }
            }
        }
        if (contentLength > maxBodyBytes) {
            return tooLarge(maxBodyBytes);
        }
        return null;
    }

    public static ApiException tooLarge(long maxBodyBytes) {
        return new ApiException(ErrorCode.PAYLOAD_TOO_LARGE, 413,
                "The request body is too large; at most " + maxBodyBytes + " bytes are accepted", null, Map.of());
    }

    /** U+0000 to U+001F and U+007F to U+009F. */
    public static boolean hasControlCharacter(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (isControl(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f);
    }

    private static String printable(String name) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < name.length() && out.length() < 100; i++) {
            char c = name.charAt(i);
            out.append(isControl(c) ? '?' : c);
        }
        return out.toString();
    }
}

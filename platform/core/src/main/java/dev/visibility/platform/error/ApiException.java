package dev.visibility.platform.error;

import java.util.Map;

/**
 * Base of the typed exceptions services throw; the platform's error handler turns each into
 * the error body. Messages are written for API users and must never carry secrets or internals.
 */
public class ApiException extends RuntimeException {

    private final ErrorCode code;
    private final int status;
    private final String reason;
    private final Map<String, String> headers;

    public ApiException(ErrorCode code, String message) {
        this(code, code.status(), message, null, Map.of());
    }

    public ApiException(ErrorCode code, int status, String message, String reason, Map<String, String> headers) {
        super(message, null, false, false);
        this.code = code;
        this.status = status;
        this.reason = reason;
        this.headers = Map.copyOf(headers);
    }

    public ErrorCode code() {
        return code;
    }

    public int status() {
        return status;
    }

    public String reason() {
        return reason;
    }

    /** Extra response headers, such as {@code Retry-After}. */
    public Map<String, String> headers() {
        return headers;
    }

    public ErrorBody body() {
        return new ErrorBody(code.value(), getMessage(), status, reason);
    }
}

package dev.visibility.platform.error;

/**
 * Values of the {@code error} member. The first seven are fixed by DESIGN.md; the others name
 * framework-made statuses that the specification does not list (documented in the README).
 */
public enum ErrorCode {
    INVALID_REQUEST("invalid_request", 400),
    UNAUTHORIZED("unauthorized", 401),
    FORBIDDEN("forbidden", 403),
    NOT_FOUND("not_found", 404),
    METHOD_NOT_ALLOWED("method_not_allowed", 405),
    NOT_ACCEPTABLE("not_acceptable", 406),
    CONFLICT("conflict", 409),
    PAYLOAD_TOO_LARGE("payload_too_large", 413),
    URI_TOO_LONG("uri_too_long", 414),
    UNSUPPORTED_MEDIA_TYPE("unsupported_media_type", 415),
    RATE_LIMITED("rate_limited", 429),
    HEADERS_TOO_LARGE("headers_too_large", 431),
    INTERNAL("internal", 500),
    UNAVAILABLE("unavailable", 503);

    private final String value;
    private final int status;

    ErrorCode(String value, int status) {
        this.value = value;
        this.status = status;
    }

    public String value() {
        return value;
    }

    public int status() {
        return status;
    }

    /** The code for any HTTP status: exact where one is defined, else by class (4xx, 5xx). */
    public static ErrorCode forStatus(int status) {
        for (ErrorCode code : values()) {
            if (code.status == status) {
                return code;
            }
        }
        if (status == 502 || status == 504) {
            return UNAVAILABLE;
        }
        return status >= 500 ? INTERNAL : INVALID_REQUEST;
    }
}

package dev.visibility.platform.error;

import java.util.Map;

/** What an error handler writes: the status, the body and any extra headers. */
public record ApiError(int status, ErrorBody body, Map<String, String> headers) {
}

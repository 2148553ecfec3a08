package dev.visibility.platform.error;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The one error body of the suite (spec 2.1, 7.1): {@code status} always equals the HTTP
 * status; {@code reason} appears only for errors that have several causes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ErrorBody(String error, String message, int status, String reason) {

    public static ErrorBody of(ErrorCode code, int status, String message) {
        return new ErrorBody(code.value(), message, status, null);
    }
}

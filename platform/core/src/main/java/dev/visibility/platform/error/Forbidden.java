package dev.visibility.platform.error;

/** 403: an authenticated caller that lacks a scope, feature or permission (spec 7, kept distinct from 401). */
public class Forbidden extends ApiException {

    public Forbidden(String message) {
        super(ErrorCode.FORBIDDEN, message);
    }

    public Forbidden(String message, String reason) {
        super(ErrorCode.FORBIDDEN, 403, message, reason, java.util.Map.of());
    }
}

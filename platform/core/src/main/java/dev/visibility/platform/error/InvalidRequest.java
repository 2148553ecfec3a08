package dev.visibility.platform.error;

/** 400 for a request that is wrong as a whole, for example an invalid state transition. */
public class InvalidRequest extends ApiException {

    public InvalidRequest(String message) {
        super(ErrorCode.INVALID_REQUEST, message);
    }

    public InvalidRequest(String message, String reason) {
        super(ErrorCode.INVALID_REQUEST, 400, message, reason, java.util.Map.of());
    }
}

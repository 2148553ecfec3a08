package dev.visibility.platform.error;

/** 503: a dependency of the request is down or timed out. */
public class Unavailable extends ApiException {

    public Unavailable(String message) {
        super(ErrorCode.UNAVAILABLE, message);
    }
}

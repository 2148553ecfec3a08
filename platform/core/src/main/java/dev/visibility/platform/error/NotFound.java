package dev.visibility.platform.error;

/** 404: an unknown resource, or one of another project (never told apart, spec 5.4). */
public class NotFound extends ApiException {

    public NotFound(String message) {
        super(ErrorCode.NOT_FOUND, message);
    }
}

package dev.visibility.platform.error;

/** 400 naming the parameter (query, path or body field) and what it accepts. */
public class InvalidParameter extends ApiException {

    private final String parameter;

    public InvalidParameter(String parameter, String message) {
        super(ErrorCode.INVALID_REQUEST, message);
        this.parameter = parameter;
    }

    public String parameter() {
        return parameter;
    }
}

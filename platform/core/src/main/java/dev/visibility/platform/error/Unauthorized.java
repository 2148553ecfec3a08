package dev.visibility.platform.error;

/** 401 with the one generic message: missing, malformed, unknown, expired and revoked credentials look the same. */
public class Unauthorized extends ApiException {

    public static final String MESSAGE = "A valid API key is required: send it as 'Authorization: Bearer <API_KEY>'";

    public Unauthorized() {
        super(ErrorCode.UNAUTHORIZED, MESSAGE);
    }
}

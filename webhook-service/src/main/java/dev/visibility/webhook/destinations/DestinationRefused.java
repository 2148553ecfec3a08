package dev.visibility.webhook.destinations;

import java.io.IOException;

/**
 * A destination host resolved to an address webhooks may not reach (or to nothing). An
 * {@link IOException}, so that the delivery client treats it as a failed connection attempt.
 */
public class DestinationRefused extends IOException {

    public DestinationRefused(String message) {
        super(message, null);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}

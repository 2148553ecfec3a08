package dev.visibility.visibility.ingest;

/**
 * A record that can never be applied (not JSON, not the documented schema, values out of range):
 * it is not retried but goes straight to the topic's dead-letter topic.
 */
public class UnusableRecord extends RuntimeException {

    public UnusableRecord(String message) {
        super(message, null, false, false);
    }
}

package dev.visibility.webhook.delivery;

/** A Kafka record this service cannot use (not the JSON it expects); it goes to a dead-letter topic unchanged. */
public class UnusableRecord extends RuntimeException {

    public UnusableRecord(String message) {
        super(message, null, false, false);
    }
}

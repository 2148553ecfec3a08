package dev.visibility.auth.usage;

/** A usage record that no retry can apply (not JSON, missing or malformed fields): sent to the dead-letter topic at once. */
class UnusableUsageRecord extends RuntimeException {

    UnusableUsageRecord(String message) {
        super(message, null, false, false);
    }
}

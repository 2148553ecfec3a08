package dev.visibility.actions.recommendations;

/** A {@code recommendations} record that can never be applied: it goes to the dead-letter topic at once. */
class UnusableRecommendation extends RuntimeException {

    UnusableRecommendation(String message) {
        super(message, null, false, false);
    }
}

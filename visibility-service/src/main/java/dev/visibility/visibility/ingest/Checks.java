package dev.visibility.visibility.ingest;

/** Small checks shared by the topic listeners. */
public final class Checks {

    private Checks() {
    }

    public static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    public static boolean tooLong(String value, int max) {
        return value != null && value.length() > max;
    }
}

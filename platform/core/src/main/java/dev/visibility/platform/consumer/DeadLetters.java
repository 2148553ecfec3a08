package dev.visibility.platform.consumer;

/**
 * The one dead-letter naming rule of the suite: the records of {@code <topic>} that can never be
 * applied go, unchanged (key, value and headers), to {@code <topic>.DLT}, with the reason in
 * {@value #REASON_HEADER}. Nothing replays them automatically; they are kept for inspection.
 */
public final class DeadLetters {

    public static final String SUFFIX = ".DLT";
    /** Header of a dead letter: why it is there (UTF-8 text, no values of the record). */
    public static final String REASON_HEADER = "x-dlt-reason";

    private DeadLetters() {
    }

    public static String topic(String topic) {
        return topic + SUFFIX;
    }
}

package dev.visibility.platform.consumer;

/**
 * A record that no retry can ever apply (not JSON, not the topic's contract, a value out of range,
 * a fact that contradicts what is stored): the platform sends it to {@code <topic>.DLT} at once,
 * unchanged, with this message in the {@code x-dlt-reason} header. The message says what is wrong,
 * never a value of the record (it is read by operators and must carry no secrets).
 */
public class PoisonRecord extends RuntimeException {

    /** The record of a batch that cannot apply (as the batch handler was given it); null when not named. */
    private final transient Object record;

    public PoisonRecord(String reason) {
        this(reason, null);
    }

    /**
     * For a batch handler ({@link TopicConsumer#batch}): {@code record}, one of the records it was
     * given, can never apply. The platform dead-letters that record alone with this reason and hands
     * the handler the rest of the batch again (in a new transaction).
     */
    public PoisonRecord(String reason, Object record) {
        super(reason, null, false, false);
        this.record = record;
    }

    /** The batch's record this failure names, or null. */
    public Object record() {
        return record;
    }
}

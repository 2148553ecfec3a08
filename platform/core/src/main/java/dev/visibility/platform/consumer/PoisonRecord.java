package dev.visibility.platform.consumer;

/**
 * A record that no retry can ever apply (not JSON, not the topic's contract, a value out of range,
 * a fact that contradicts what is stored): the platform sends it to {@code <topic>.DLT} at once,
 * unchanged, with this message in the {@code x-dlt-reason} header. The message says what is wrong,
 * never a value of the record (it is read by operators and must carry no secrets).
 */
public class PoisonRecord extends RuntimeException {

    public PoisonRecord(String reason) {
        super(reason, null, false, false);
    }
}

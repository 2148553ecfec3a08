package dev.visibility.platform.consumer;

import java.util.UUID;

/**
 * The contract of a record a {@link TopicConsumer} reads: it carries the eventId the platform
 * de-duplicates by, and it can check rules that Bean Validation's annotations do not express
 * (members that depend on each other, uniqueness within a list). The platform runs Bean
 * Validation on the record first, then {@link #validate()}.
 */
public interface ConsumedRecord {

    UUID eventId();

    /** Throws {@link PoisonRecord} naming what is wrong; the default checks nothing more. */
    default void validate() {
    }
}

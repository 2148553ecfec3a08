package dev.visibility.platform.consumer;

/**
 * A quicker reading of a topic's records in their common form, for the highest-volume topics: the
 * platform's reading ({@link TopicConsumer}) builds a JSON tree, checks it against the topic's JSON
 * Schema and maps it to the record type, which costs a good part of what such a record costs in all.
 * A quick reader reads the value in one pass and answers the record only when it is sure that the
 * full reading would answer the same record: a value in exactly the form it knows, which the topic's
 * schema accepts. For anything else (an unknown member, a number written as a decimal, a character it
 * does not judge, a missing member, a bad value) it answers null, and the full reading judges the
 * value as it always does, with its reasons. So a quick reader never refuses a record; it only
 * spares the common ones the full reading. {@link ConsumedRecord#validate()} runs after either.
 *
 * <p>Only for record types without Bean Validation constraints (the platform refuses the pair at start):
 * the quick reading does not run them. A quick reader is tested against the full reading
 * ({@code TrafficHitQuickReaderTest} shows how).
 */
@FunctionalInterface
public interface QuickReader<T extends ConsumedRecord> {

    /**
     * The record {@code value} holds, or null to leave {@code value} to the full reading. May throw
     * for a value it cannot read: that counts as null.
     */
    T readOrNull(String value);
}

package dev.visibility.platform.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import dev.visibility.platform.outbox.ClaimTable;
import dev.visibility.platform.outbox.Claims;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Which consumers claim their eventIds, and where. */
class TopicConsumerTest {

    private static final ClaimTable CLAIMS = new ClaimTable("test_claims");

    @Test
    void aBatchConsumerClaimsInItsClaimTableAndKeepsItsOtherSettings() {
        TopicConsumer<ConsumedRecord> consumer = TopicConsumer.batch("t", ConsumedRecord.class, records -> Mono.empty())
                .idempotentIn(CLAIMS)
                .maxPollRecords(10)
                .concurrency(2)
                .timeout(Duration.ofSeconds(5))
                .gather(2048, Duration.ofMillis(100));
        assertThat(consumer.isIdempotent()).isTrue();
        assertThat(consumer.claims()).isEqualTo(new Claims("test_claims", null));
        assertThat(consumer.claims().ownTable()).isTrue();
        assertThat(consumer.maxPollRecords()).isEqualTo(10);
        assertThat(consumer.concurrency()).isEqualTo(2);
        assertThat(consumer.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(consumer.gather()).isEqualTo(new TopicConsumer.Gather(2048, Duration.ofMillis(100)));
        assertThat(consumer.topic()).isEqualTo("t");
        assertThat(consumer.isBatch()).isTrue();
    }

    @Test
    void aGatheringConsumerKeepsItsBatchSizeAndWaitAndAZeroWaitGathersNothing() {
        TopicConsumer<ConsumedRecord> consumer = TopicConsumer.batch("t", ConsumedRecord.class, records -> Mono.empty())
                .gather(1024, Duration.ofMillis(200))
                .concurrency(3);
        assertThat(consumer.gather()).isEqualTo(new TopicConsumer.Gather(1024, Duration.ofMillis(200)));
        assertThat(TopicConsumer.batch("t", ConsumedRecord.class, records -> Mono.empty()).gather()).isNull();
        assertThatThrownBy(() -> new TopicConsumer.Gather(0, Duration.ofMillis(200))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TopicConsumer.Gather(1024, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        // a service's "no gathering" setting: the consumer keeps the service's fetch settings
        assertThat(consumer.gather(1024, Duration.ZERO).gather()).isNull();
        assertThat(consumer.gather(1024, Duration.ZERO).concurrency()).isEqualTo(3);
        assertThatThrownBy(() -> consumer.gather(1024, Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aConsumerWithoutClaimsIsNotIdempotent() {
        assertThat(TopicConsumer.batch("t", ConsumedRecord.class, records -> Mono.empty()).isIdempotent()).isFalse();
        TopicConsumer<ConsumedRecord> named = TopicConsumer.of("t", ConsumedRecord.class, record -> Mono.empty()).idempotent("c");
        assertThat(named.isIdempotent()).isTrue();
        assertThat(named.claims()).isEqualTo(new Claims("processed_events", "c"));
    }

    @Test
    void processedEventsAloneHasNamedClaimsAndATableNameIsAnIdentifier() {
        assertThatThrownBy(() -> new Claims("processed_events", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Claims("test_claims", "c")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Claims("hits; DROP TABLE x", null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aClaimTableIsForBatchConsumersAloneAndNotBesideProcessedEvents() {
        assertThatThrownBy(() -> TopicConsumer.of("t", ConsumedRecord.class, record -> Mono.empty()).idempotentIn(CLAIMS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TopicConsumer.batch("t", ConsumedRecord.class, records -> Mono.empty()).idempotent("c")
                .idempotentIn(CLAIMS))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

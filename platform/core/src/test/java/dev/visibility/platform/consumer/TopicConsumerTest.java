package dev.visibility.platform.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import dev.visibility.platform.outbox.ClaimTable;
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
                .concurrency(2);
        assertThat(consumer.isIdempotent()).isTrue();
        assertThat(consumer.claimTable()).isSameAs(CLAIMS);
        assertThat(consumer.idempotencyName()).isNull();
        assertThat(consumer.maxPollRecords()).isEqualTo(10);
        assertThat(consumer.concurrency()).isEqualTo(2);
    }

    @Test
    void aGatheringConsumerKeepsItsBatchSizeAndWaitAndRefusesNone() {
        TopicConsumer<ConsumedRecord> consumer = TopicConsumer.batch("t", ConsumedRecord.class, records -> Mono.empty())
                .gather(1024, Duration.ofMillis(200))
                .concurrency(3);
        assertThat(consumer.gather()).isEqualTo(new TopicConsumer.Gather(1024, Duration.ofMillis(200)));
        assertThat(TopicConsumer.batch("t", ConsumedRecord.class, records -> Mono.empty()).gather()).isNull();
        assertThatThrownBy(() -> new TopicConsumer.Gather(0, Duration.ofMillis(200))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TopicConsumer.Gather(1024, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aConsumerWithoutClaimsIsNotIdempotent() {
        assertThat(TopicConsumer.batch("t", ConsumedRecord.class, records -> Mono.empty()).isIdempotent()).isFalse();
        assertThat(TopicConsumer.of("t", ConsumedRecord.class, record -> Mono.empty()).idempotent("c").isIdempotent()).isTrue();
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

package dev.visibility.platform.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.visibility.platform.testapp.TestApplication;
import dev.visibility.platform.testing.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.MessageListener;

/**
 * Issue 16, against the real broker: a record whose processing fails because a dependency is down
 * (the database) is retried for as long as that lasts, far past the bounded in-place retries, and
 * never dead-lettered; a record that can never apply goes to {@code <topic>.DLT} at once with its
 * reason in {@code x-dlt-reason}. "Nothing else was dead-lettered" is proved with a second poison
 * record as a sentinel, published last on the same partition: the dead-letter topic holds the two
 * poison records and nothing between them.
 */
@SpringBootTest(classes = TestApplication.class)
class StringRecordListenersTest {

    /** A record that can never apply. */
    static final class Poison extends RuntimeException {
        Poison(String message) {
            super(message);
        }
    }

    @Autowired
    ConcurrentKafkaListenerContainerFactoryConfigurer configurer;
    @Autowired
    KafkaProperties properties;

    @Test
    void aDatabaseOutageIsWaitedOutAndOnlyPoisonIsDeadLettered() {
        String topic = "listeners-test-" + UUID.randomUUID();
        // bounded retries of 2 (about 0.1 s): before issue 16 the outage below dead-lettered the fact
        StringRecordListeners.Retries retries = new StringRecordListeners.Retries(2, 50, 100);
        Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        List<String> processed = new CopyOnWriteArrayList<>();
        MessageListener<Object, Object> listener = record -> {
            String value = (String) record.value();
            int attempt = attempts.computeIfAbsent(value, k -> new AtomicInteger()).incrementAndGet();
            if (value.startsWith("poison")) {
                throw new Poison("the record names an unknown version");
            }
            if (value.startsWith("fact") && attempt <= 6) {
                throw new DataAccessResourceFailureException("Connection refused: the database is down");
            }
            processed.add(value);
        };
        StringProducer deadLetters = new StringProducer(properties);
        try {
            ConcurrentKafkaListenerContainerFactory<Object, Object> factory = StringRecordListeners.containerFactory(
                    configurer, properties, deadLetters, retries, Map.of(), Poison.class);
            ConcurrentMessageListenerContainer<Object, Object> container = factory.createContainer(topic);
            container.getContainerProperties().setGroupId("listeners-test-" + UUID.randomUUID());
            container.getContainerProperties().setMessageListener(listener);
            container.start();
            try {
                // poison-2 is the sentinel: on one partition, a dead-lettered fact would sit before it
                TestKafka.publish(topic, "k", "fact-1", "poison-1", "fact-2", "poison-2");
                List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(StringRecordListeners.deadLetterTopic(topic),
                        r -> true, 2, Duration.ofSeconds(90));
                assertThat(dead).extracting(ConsumerRecord::value).containsExactly("poison-1", "poison-2");
                assertThat(dead.get(0).value()).isEqualTo("poison-1");
                assertThat(new String(dead.get(0).headers().lastHeader(StringRecordListeners.REASON_HEADER).value(),
                        StandardCharsets.UTF_8)).isEqualTo("Poison: the record names an unknown version");
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> processed.contains("fact-2"));
                assertThat(processed).containsExactly("fact-1", "fact-2");
                assertThat(attempts.get("fact-1")).hasValue(7);
                assertThat(attempts.get("poison-1")).hasValue(1);
            } finally {
                container.stop();
            }
        } finally {
            deadLetters.destroy();
        }
    }
}

package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.events.Topics;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.traffic.support.TrafficTest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The consumer counts how it read each hit ({@code consumer.records.read}, docs/operations.md): a hit as the
 * sensors write it by the quick reader, a hit with a member the schema does not name (which the schema
 * allows) by the full reading; both kinds are applied.
 */
class TrafficHitReadingsTest extends TrafficTest {

    @Autowired
    MeterRegistry meters;

    @Test
    void hitsAreCountedByHowTheyWereRead() {
        UUID project = UUID.randomUUID();
        Instant at = ago(Duration.ofMinutes(3));
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            values.add(mapper.writeValueAsString(bot(project, "cloudflare", "acme.dev", "/quick/" + i, 200, "GPTBot", "q" + i, at)));
        }
        for (int i = 0; i < 3; i++) {
            String hit = mapper.writeValueAsString(bot(project, "cloudflare", "acme.dev", "/full/" + i, 200, "GPTBot", "f" + i, at));
            values.add(hit.replaceFirst("\\{", "{\"sensorBuild\":\"2026.11\","));
        }
        double quickBefore = readings("quick");
        double fullBefore = readings("full");

        TestKafka.publish(Topics.TRAFFIC_HITS, project.toString(), values);
        awaitTotal(project, 8);

        assertThat(readings("quick") - quickBefore).isEqualTo(5);
        assertThat(readings("full") - fullBefore).isEqualTo(3);
    }

    private double readings(String reading) {
        Counter counter = meters.find("consumer.records.read").tag("topic", Topics.TRAFFIC_HITS).tag("reading", reading).counter();
        assertThat(counter).as("consumer.records.read{reading=%s}", reading).isNotNull();
        return counter.count();
    }
}

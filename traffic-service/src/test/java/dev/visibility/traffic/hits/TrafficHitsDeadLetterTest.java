package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.consumer.DeadLetters;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.platform.testing.TestKafka;
import dev.visibility.traffic.support.TrafficTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/**
 * traffic.hits is consumed in batches: a malformed hit goes to traffic.hits.DLT unchanged with its
 * reason, and the rest of its batch is applied.
 */
class TrafficHitsDeadLetterTest extends TrafficTest {

    @Test
    void malformedHitsAreDeadLetteredWithTheirReasonAndTheRestOfTheBatchIsKept() {
        UUID project = UUID.randomUUID();
        Instant at = ago(Duration.ofMinutes(5));
        String good1 = mapper.writeValueAsString(bot(project, "cloudflare", "acme.dev", "/a", 200, "GPTBot", "s1", at));
        String good2 = mapper.writeValueAsString(referral(project, "cloudflare", "acme.dev", "/b", 200, "chatgpt.com", "s2", at));
        String both = mapper.writeValueAsString(new TrafficHitObserved(UUID.randomUUID(), project, "cloudflare", "acme.dev",
                "/c", 200, "GPTBot", "chatgpt.com", "s3", at));
        String badHost = mapper.writeValueAsString(bot(project, "cloudflare", "acme dev", "/d", 200, "GPTBot", "s4", at));
        String badPath = mapper.writeValueAsString(bot(project, "cloudflare", "acme.dev", "docs", 200, "GPTBot", "s4", at));
        String future = mapper.writeValueAsString(bot(project, "cloudflare", "acme.dev", "/e", 200, "GPTBot", "s4",
                Instant.now().plus(Duration.ofDays(2))));
        String notJson = "{not json";
        // blank (the schema's minLength counts the spaces; the record's own check does not)
        String blankSession = mapper.writeValueAsString(bot(project, "cloudflare", "acme.dev", "/f", 200, "GPTBot", "  ", at));
        String blankBoth = mapper.writeValueAsString(bot(project, " ", "acme.dev", "/g", 200, "GPTBot", " ", at));
        String noStatus = mapper.writeValueAsString(bot(project, "cloudflare", "acme.dev", "/h", 200, "GPTBot", "s5", at))
                .replace("\"status\":200,", "");
        List<String> poison = List.of(both, badHost, badPath, future, notJson, blankSession, blankBoth, noStatus);
        List<String> all = new ArrayList<>(List.of(good1));
        all.addAll(poison);
        all.add(good2);
        // one send: the records reach the consumer in one poll (one batch)
        TestKafka.publish(Topics.TRAFFIC_HITS, project.toString(), all);

        List<ConsumerRecord<String, String>> dead = TestKafka.awaitRecords(DeadLetters.topic(Topics.TRAFFIC_HITS),
                r -> project.toString().equals(r.key()), poison.size(), WAIT);
        assertThat(dead).extracting(ConsumerRecord::value).containsExactlyElementsOf(poison);
        assertThat(dead).extracting(TrafficHitsDeadLetterTest::reason).containsExactly(
                "poison: exactly one of botName and referrer must be set",
                "poison: does not match the schema of traffic.hits (/hostname pattern)",
                "poison: does not match the schema of traffic.hits (/path pattern)",
                "poison: observedAt lies more than 1 hour in the future",
                "poison: not JSON",
                "poison: sessionId must not be blank",
                "poison: sessionId must not be blank; source must not be blank",
                "poison: does not match the schema of traffic.hits (/status required)");
        awaitTotal(project, 2);
        // the project scope's sessions histogram (README, E4 "Sessions"): the two kept hits' sessions, none of the poison ones
        assertThat(count("SELECT sum(sessions) FROM traffic_days WHERE project_id = $1 AND hostname = ''", project)).isEqualTo(2);
    }

    private static String reason(ConsumerRecord<String, String> record) {
        Header header = record.headers().lastHeader(DeadLetters.REASON_HEADER);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}

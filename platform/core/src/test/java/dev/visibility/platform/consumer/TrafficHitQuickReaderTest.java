package dev.visibility.platform.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import dev.visibility.platform.events.AdoptionMetricSampled;
import dev.visibility.platform.events.Topics;
import dev.visibility.platform.events.TrafficHitObserved;
import dev.visibility.platform.events.TrafficHitQuickReader;
import dev.visibility.platform.web.guard.ControlCharactersModule;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;

/**
 * The quick reading of {@code traffic.hits} answers a record only where the platform's full reading
 * (JSON tree, the topic's schema, the mapping) answers the same record, and it answers the sensors'
 * common records. Judged on generated hits and on every mutation of them that the schema speaks of:
 * each member missing, null, of another type, at and beyond its lengths, with characters outside
 * printable ASCII, both patterns broken, numbers as decimals, duplicate and unknown members, text after
 * the object.
 */
class TrafficHitQuickReaderTest {

    /** The mapper the consumers read with: Boot's, with the platform's modules, as TopicConsumers builds it. */
    private static final ObjectMapper MAPPER = consumersMapper();
    private static final Validator VALIDATOR = Validation.buildDefaultValidatorFactory().getValidator();

    private final RecordReader<TrafficHitObserved> full = new RecordReader<>(Topics.TRAFFIC_HITS, TrafficHitObserved.class,
            MAPPER, VALIDATOR, new TopicSchemas());
    private final RecordReader<TrafficHitObserved> withQuick = new RecordReader<>(Topics.TRAFFIC_HITS,
            TrafficHitObserved.class, MAPPER, VALIDATOR, new TopicSchemas(), new TrafficHitQuickReader());
    private final TrafficHitQuickReader quick = new TrafficHitQuickReader();

    static ObjectMapper consumersMapper() {
        ObjectMapper[] boot = new ObjectMapper[1];
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
                .withBean(ControlCharactersModule.class)
                .run(context -> boot[0] = context.getBean(ObjectMapper.class));
        return boot[0].rebuild().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .addModule(RecordInstants.module()).build();
    }

    @Test
    void theSensorsCommonRecordsAreReadQuicklyAsTheFullReadingReadsThem() {
        Random random = new Random(33);
        for (int i = 0; i < 2_000; i++) {
            String value = json(hit(random));
            TrafficHitObserved quickly = quick.readOrNull(value);
            assertThat(quickly).as(value).isNotNull();
            assertThat(quickly).as(value).isEqualTo(full.read(value));
        }
    }

    @Test
    void aHitAsThePlatformsProducersWriteItIsReadQuickly() {
        // the demo data and the simulator publish the record's JSON as the services' mapper writes it (DemoRecords)
        TrafficHitObserved hit = new TrafficHitObserved(UUID.randomUUID(), UUID.randomUUID(), "cloudflare", "docs.example.com",
                "/docs/start", 200, "GPTBot", null, "bot-1", Instant.parse("2026-11-29T10:15:30.123Z"));
        String value = MAPPER.writeValueAsString(hit);
        assertThat(quick.readOrNull(value)).as(value).isEqualTo(hit);
    }

    @Test
    void everyMutationIsEitherReadAsTheFullReadingReadsItOrLeftToIt() {
        Random random = new Random(34);
        int quicklyRead = 0;
        int leftToTheFullReading = 0;
        for (int i = 0; i < 40; i++) {
            for (String value : mutations(hit(random))) {
                TrafficHitObserved quickly;
                try {
                    quickly = quick.readOrNull(value);
                } catch (RuntimeException e) {
                    quickly = null; // counts as left to the full reading (RecordReader)
                }
                if (quickly == null) {
                    leftToTheFullReading++;
                    continue;
                }
                quicklyRead++;
                assertThat(outcome(withQuick, value)).as(value).isEqualTo(outcome(full, value));
            }
        }
        // both kinds occur: the mutations are not all refused, nor all accepted, by the quick reading
        assertThat(quicklyRead).isGreaterThan(1_000);
        assertThat(leftToTheFullReading).isGreaterThan(1_000);
    }

    @Test
    void aRecordLeftToTheFullReadingIsRefusedWithTheFullReadingsReason() {
        String value = json(with(hit(new Random(35)), "hostname", "\"-bad.example\""));
        assertThat(quick.readOrNull(value)).isNull();
        assertThatThrownBy(() -> withQuick.read(value)).isInstanceOf(PoisonRecord.class)
                .hasMessage("does not match the schema of traffic.hits (/hostname pattern)");
    }

    @Test
    void aQuicklyReadRecordIsStillValidated() {
        // the schema accepts both members set; the record's own validation refuses it
        Map<String, String> both = with(hit(new Random(36)), "referrer", "\"chatgpt.com\"");
        both.put("botName", "\"GPTBot\"");
        assertThat(quick.readOrNull(json(both))).isNotNull();
        assertThatThrownBy(() -> withQuick.read(json(both))).isInstanceOf(PoisonRecord.class)
                .hasMessage("exactly one of botName and referrer must be set");
    }

    @Test
    void eachRecordIsCountedByHowItWasRead() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RecordReader<TrafficHitObserved> counting = new RecordReader<>(Topics.TRAFFIC_HITS, TrafficHitObserved.class, MAPPER,
                VALIDATOR, new TopicSchemas(), new TrafficHitQuickReader(), meters);
        Random random = new Random(37);
        counting.read(json(hit(random)));
        counting.read(json(hit(random)));
        // an unknown member: the schema allows it, the quick reader leaves it to the full reading
        counting.read(json(with(hit(random), "sensorBuild", "\"2026.11\"")));
        assertThatThrownBy(() -> counting.read("{not json")).isInstanceOf(PoisonRecord.class);
        assertThatThrownBy(() -> counting.read(null)).isInstanceOf(PoisonRecord.class);

        assertThat(meters.get("consumer.records.read").tags("topic", Topics.TRAFFIC_HITS, "reading", "quick").counter().count())
                .isEqualTo(2);
        assertThat(meters.get("consumer.records.read").tags("topic", Topics.TRAFFIC_HITS, "reading", "full").counter().count())
                .isEqualTo(3);
    }

    @Test
    void aConsumerWithoutAQuickReaderCountsOnlyFullReadings() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RecordReader<TrafficHitObserved> counting = new RecordReader<>(Topics.TRAFFIC_HITS, TrafficHitObserved.class, MAPPER,
                VALIDATOR, new TopicSchemas(), null, meters);
        counting.read(json(hit(new Random(38))));
        assertThat(meters.find("consumer.records.read").tag("reading", "quick").counter()).isNull();
        assertThat(meters.get("consumer.records.read").tags("topic", Topics.TRAFFIC_HITS, "reading", "full").counter().count())
                .isEqualTo(1);
    }

    @Test
    void aTypeWithBeanValidationConstraintsCannotHaveAQuickReader() {
        // a quick reading would skip the constraints
        assertThatThrownBy(() -> new RecordReader<>(Topics.ADOPTION_METRICS, AdoptionMetricSampled.class, MAPPER, VALIDATOR,
                new TopicSchemas(), value -> null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The consumer of adoption.metrics has a quick reader, but AdoptionMetricSampled has Bean Validation"
                        + " constraints, which a quick reading would skip");
    }

    /** The record {@code reader} reads from {@code value}, or the reason it refuses it. */
    private static Object outcome(RecordReader<TrafficHitObserved> reader, String value) {
        try {
            return reader.read(value);
        } catch (PoisonRecord e) {
            return "poison: " + e.getMessage();
        }
    }

    /** A hit as the sensors write it: members in order, JSON text of each value. */
    private static Map<String, String> hit(Random random) {
        boolean bot = random.nextBoolean();
        Map<String, String> hit = new LinkedHashMap<>();
        if (random.nextInt(4) == 0) {
            hit.put("schemaVersion", "1");
        }
        hit.put("eventId", quote(random.nextBoolean() ? UUID.randomUUID().toString() : UUID.randomUUID().toString().toUpperCase()));
        hit.put("projectId", quote(UUID.randomUUID().toString()));
        hit.put("source", quote(random.nextBoolean() ? "cloudflare" : "vercel-middleware"));
        hit.put("hostname", quote(random.nextBoolean() ? "docs.example.com" : "Example-" + random.nextInt(100) + ".dev"));
        hit.put("path", quote("/docs/s" + random.nextInt(50) + "/p" + random.nextInt(5000) + (random.nextBoolean() ? "?q=a%20b" : "")));
        hit.put("status", random.nextInt(10) == 0 ? "404" : "200");
        hit.put("botName", bot ? quote("GPTBot") : "null");
        hit.put("referrer", bot ? "null" : quote("https://chatgpt.com/"));
        hit.put("sessionId", quote((bot ? "bot-" : "v-") + random.nextInt(20_000)));
        Instant at = Instant.now().minusMillis(random.nextInt(3_600_000));
        hit.put("observedAt", quote(switch (random.nextInt(3)) {
            case 0 -> at.truncatedTo(ChronoUnit.MILLIS).toString();
            case 1 -> at.truncatedTo(ChronoUnit.SECONDS).toString();
            default -> at.atOffset(java.time.ZoneOffset.ofHours(2)).toString();
        }));
        if (random.nextBoolean()) {
            hit.remove(bot ? "referrer" : "botName");
        }
        return hit;
    }

    private static List<String> mutations(Map<String, String> hit) {
        List<String> values = new ArrayList<>();
        List<String> odd = List.of("null", "true", "0", "1", "1.0", "200.0", "2e2", "-1", "99", "100", "599", "600",
                "99999999999", "[]", "{}", "\"\"", "\" \"", "\"a\"", "\"/\"", "\"GPTBot\"", "\"é\"", "\"/é\"", "\"a\\u0000b\"",
                "\"a\\tb\"", "\"/a\\nb\"", "\"a\\u007fb\"", "\"a\\u0085b\"", "\"\\ud83d\\ude00\"", "\"" + "x".repeat(100) + "\"",
                "\"" + "x".repeat(101) + "\"", "\"" + "x".repeat(128) + "\"", "\"" + "x".repeat(129) + "\"",
                "\"/" + "x".repeat(2047) + "\"", "\"/" + "x".repeat(2048) + "\"", "\"" + "a".repeat(63) + ".dev\"",
                "\"" + "a".repeat(64) + ".dev\"", "\"" + ("a".repeat(61) + ".").repeat(4) + "dev\"", "\"a-.dev\"", "\"a..dev\"",
                "\"a.dev.\"", "\".a.dev\"", "\"a_b.dev\"", "\"xn--bcher-kva.example\"", "\"1.2.3.4\"", "\"a.dev:8080\"",
                "\"00000000-0000-0000-0000-000000000000\"", "\"00000000000000000000000000000000\"",
                "\"{00000000-0000-0000-0000-000000000000}\"", "\"0000000-00000-0000-0000-000000000000\"",
                "\"2026-11-30T00:00:00Z\"", "\"2026-11-30T00:00:00.123456789+01:00\"", "\"2026-11-30t00:00:00z\"",
                "\"2026-11-30T00:00:00\"", "\"2026-11-30 00:00:00Z\"", "\"2026-02-30T00:00:00Z\"", "\"2026-11-30T24:00:00Z\"",
                "\"2026-11-30T00:00:60Z\"", "\"2099-01-01T00:00:00Z\"", "\"2026-11-30T00:00:00+19:00\"");
        for (String member : hit.keySet()) {
            Map<String, String> without = new LinkedHashMap<>(hit);
            without.remove(member);
            values.add(json(without));
            for (String value : odd) {
                values.add(json(with(hit, member, value)));
            }
            values.add(json(hit).replaceFirst("\\}$", ",\"" + member + "\":" + hit.get(member) + "}"));
        }
        for (String name : List.of("botName", "referrer", "schemaVersion", "unknown", "eventid")) {
            for (String value : odd.subList(0, 6)) {
                Map<String, String> extra = new LinkedHashMap<>(hit);
                extra.put(name, value);
                values.add(json(extra));
            }
        }
        String whole = json(hit);
        values.addAll(List.of(whole + " ", whole + "x", whole + "{}", whole + ",", " " + whole, "[" + whole + "]",
                whole.substring(0, whole.length() - 1), "", "null", "{}", whole.replace("\",\"", "\" ,\n\"")));
        return values;
    }

    private static Map<String, String> with(Map<String, String> hit, String member, String value) {
        Map<String, String> changed = new LinkedHashMap<>(hit);
        changed.put(member, value);
        return changed;
    }

    private static String json(Map<String, String> hit) {
        StringBuilder out = new StringBuilder("{");
        hit.forEach((member, value) -> out.append(out.length() > 1 ? "," : "").append('"').append(member).append("\":").append(value));
        return out.append('}').toString();
    }

    private static String quote(String text) {
        return "\"" + text + "\"";
    }
}

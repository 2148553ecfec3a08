package dev.visibility.platform.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.annotation.JsonFormat;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A consumer reads an Instant member exactly as Jackson's own deserializer does (the hand-parsed
 * RFC 3339 form is only faster): same instant for every string Jackson takes, a refusal for every
 * string it refuses.
 */
class RecordInstantsTest {

    record At(Instant at) {
    }

    record Formatted(@JsonFormat(pattern = "yyyy/MM/dd HH:mm", timezone = "UTC") Instant at) {
    }

    private final ObjectMapper jackson = JsonMapper.builder().build();
    private final ObjectMapper platform = JsonMapper.builder().addModule(RecordInstants.module()).build();

    @Test
    void randomRfc3339InstantsAreReadAsJacksonReadsThem() {
        Random random = new Random(17);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            long second = random.nextLong(Instant.parse("0001-01-01T00:00:00Z").getEpochSecond(),
                    Instant.parse("9999-12-31T00:00:00Z").getEpochSecond());
            int nanos = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1000;
                default -> random.nextInt(1_000_000_000);
            };
            ZoneOffset offset = random.nextBoolean() ? ZoneOffset.UTC
                    : ZoneOffset.ofTotalSeconds((random.nextInt(36 * 4 + 1) - 18 * 4) * 15 * 60);
            OffsetDateTime time = Instant.ofEpochSecond(second, nanos).atOffset(offset);
            String pattern = "yyyy-MM-dd'T'HH:mm:ss" + (nanos == 0 && random.nextBoolean() ? ""
                    : "." + "S".repeat(1 + random.nextInt(9)));
            String text = time.format(DateTimeFormatter.ofPattern(pattern));
            text += offset.getTotalSeconds() == 0 && random.nextBoolean() ? "Z" : offset.getId().replace("Z", "+00:00");
            values.add(text);
        }
        for (String value : values) {
            assertThat(RecordInstants.parse(value)).as(value).isNotNull();
            assertThat(read(platform, value)).as(value).isEqualTo(read(jackson, value));
        }
    }

    @Test
    void everyOtherFormIsLeftToJacksonWithItsAnswerOrRefusal() {
        List<String> taken = List.of("2026-11-26T10:15:30.Z", "2026-11-26T10:15:30.1234567890Z",
                "2026-11-26T23:59:60Z", "2026-11-26T24:00:00Z", "2026-11-26t10:15:30z", " 2026-11-26T10:15:30Z ",
                "2026-11-26T10:15:30+0100", "2026-11-26T10:15:30+01", "2026-11-26T10:15:30+19:00",
                "2026-11-26T10:15:30-00:00", "2026-11-26T10:15Z", "1764152130000", "1764152130.5", "+12026-11-26T10:15:30Z",
                "2026-02-30T10:15:30Z", "2026-13-01T10:15:30Z", "2026-11-26T10:60:30Z", "2026-11-26T10:15:30+01:60",
                "2026-11-26 10:15:30Z", "2026-11-26T10:15:30", "", "not a time", "2026-11-26T10:15:30Zx");
        for (String value : taken) {
            Object expected = readOrRefusal(jackson, value);
            assertThat(readOrRefusal(platform, value)).as(value).isEqualTo(expected);
        }
        assertThat(RecordInstants.parse("2026-11-26T23:59:60Z")).isNull();
        assertThat(RecordInstants.parse("2026-02-30T10:15:30Z")).isNull();
        assertThat(RecordInstants.parse("2026-11-26T10:15:30+19:00")).isNull();
        assertThat(RecordInstants.parse("2026-11-26T10:15:30.1234567890Z")).isNull();
        assertThat(RecordInstants.parse("2026-11-26T10:15:30.5-01:30"))
                .isEqualTo(Instant.parse("2026-11-26T11:45:30.500Z"));
        assertThat(read(platform, "null")).isNull();
        assertThat(read(platform, "1764152130")).isEqualTo(Instant.ofEpochSecond(1764152130L));
    }

    @Test
    void aMemberWithItsOwnFormatIsReadByJacksonsDeserializer() {
        String json = "{\"at\":\"2026/11/26 10:15\"}";
        assertThat(platform.readValue(json, Formatted.class).at()).isEqualTo(Instant.parse("2026-11-26T10:15:00Z"));
        assertThatThrownBy(() -> platform.readValue("{\"at\":\"2026-11-26T10:15:00Z\"}", Formatted.class))
                .isInstanceOf(JacksonException.class);
    }

    private static Instant read(ObjectMapper mapper, String value) {
        String json = value.equals("null") || value.chars().allMatch(Character::isDigit)
                ? "{\"at\":" + value + "}" : "{\"at\":\"" + value + "\"}";
        return mapper.readValue(json, At.class).at();
    }

    private static Object readOrRefusal(ObjectMapper mapper, String value) {
        try {
            return mapper.readValue("{\"at\":\"" + value + "\"}", At.class).at();
        } catch (JacksonException e) {
            return "refused: " + e.getClass().getSimpleName();
        }
    }
}

package dev.visibility.platform.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.dialect.Dialect;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The consumers' schema dialect judges every {@code uuid} and {@code date-time} value exactly as
 * networknt's own 2020-12 dialect does (its quick checks only accept a subset of what networknt's
 * accept), and a record that breaks a format is still reported by member.
 */
class SchemaFormatsTest {

    private static final String SCHEMA = """
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
             "properties": {"id": {"type": "string", "format": "uuid"}, "at": {"type": "string", "format": "date-time"}}}""";

    private final Schema networknt = schema(SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build())));
    private final Schema platform = schema(withDialect(SchemaFormats.draft202012()));

    private static SchemaRegistry withDialect(Dialect dialect) {
        return SchemaRegistry.withDefaultDialect(dialect,
                builder -> builder.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
    }

    private static Schema schema(SchemaRegistry registry) {
        Schema schema = registry.getSchema(SCHEMA);
        schema.initializeValidators();
        return schema;
    }

    @Test
    void uuidsAreJudgedAsNetworkntJudgesThem() {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            String uuid = UUID.randomUUID().toString();
            values.add(i % 2 == 0 ? uuid : uuid.toUpperCase(Locale.ROOT));
            assertThat(SchemaFormats.isCanonicalUuid(uuid)).isTrue();
        }
        values.addAll(List.of("", "0", "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
                "0000000-00000-0000-0000-000000000000", "00000000-0000-0000-0000-00000000000g",
                "00000000-0000-0000-0000-000000000000\n", "00000000-0000-0000-0000-0000000000000",
                "00000000_0000_0000_0000_000000000000", "{00000000-0000-0000-0000-000000000000}",
                "00000000000000000000000000000000", "٠٠٠٠٠٠٠٠-٠٠٠٠-٠٠٠٠-٠٠٠٠-٠٠٠٠٠٠٠٠٠٠٠٠"));
        for (String value : values) {
            assertThat(valid(platform, "id", value)).as(value).isEqualTo(valid(networknt, "id", value));
        }
        assertThat(valid(platform, "id", "00000000-0000-0000-0000-00000000000g")).isFalse();
    }

    @Test
    void dateTimesAreJudgedAsNetworkntJudgesThem() {
        Random random = new Random(18);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            long second = random.nextLong(Instant.parse("0001-01-01T00:00:00Z").getEpochSecond(),
                    Instant.parse("9999-12-31T00:00:00Z").getEpochSecond());
            int nanos = random.nextInt(3) == 0 ? 0 : random.nextInt(1_000_000_000);
            ZoneOffset offset = random.nextBoolean() ? ZoneOffset.UTC
                    : ZoneOffset.ofTotalSeconds((random.nextInt(36 * 4 + 1) - 18 * 4) * 15 * 60);
            String pattern = "yyyy-MM-dd'T'HH:mm:ss" + (nanos == 0 && random.nextBoolean() ? ""
                    : "." + "S".repeat(1 + random.nextInt(9)));
            String text = OffsetDateTime.ofInstant(Instant.ofEpochSecond(second, nanos), offset)
                    .format(DateTimeFormatter.ofPattern(pattern));
            text += offset.getTotalSeconds() == 0 && random.nextBoolean() ? "Z" : offset.getId().replace("Z", "+00:00");
            values.add(text);
            assertThat(RecordInstants.parse(text)).as(text).isNotNull();
        }
        values.addAll(List.of("0000-01-01T00:00:00Z", "2026-11-26T23:59:60Z", "2016-12-31T23:59:60Z",
                "2026-11-26T24:00:00Z", "2026-02-29T10:00:00Z", "2024-02-29T10:00:00Z", "2026-11-26t10:15:30z",
                "2026-11-26T10:15:30+23:59", "2026-11-26T10:15:30+24:00", "2026-11-26T10:15:30+01:60",
                "2026-11-26T10:15:30.Z", "2026-11-26T10:15:30.1234567890Z", "2026-11-26T10:15:30+0100",
                "2026-11-26 10:15:30Z", "2026-11-26T10:15:30", "2026-11-26T10:15Z", " 2026-11-26T10:15:30Z",
                "2026-11-26T10:15:30Z\n", "+12026-11-26T10:15:30Z", "2026-13-01T10:15:30Z", "2026-11-31T10:15:30Z"));
        for (String value : values) {
            assertThat(valid(platform, "at", value)).as(value).isEqualTo(valid(networknt, "at", value));
        }
        assertThat(valid(platform, "at", "2026-02-29T10:00:00Z")).isFalse();
    }

    @Test
    void aTopicRecordBreakingAFormatIsStillReportedByMember() {
        TopicSchemas schemas = new TopicSchemas();
        String hit = """
                {"eventId": "%s", "projectId": "8a4f0d1e-0000-4000-8000-000000000001", "source": "cloudflare",
                 "hostname": "example.com", "path": "/docs", "status": 200, "botName": "GPTBot",
                 "sessionId": "s1", "observedAt": "%s"}""";
        JsonMapper mapper = JsonMapper.builder().build();
        assertThat(schemas.violations("traffic.hits", mapper.readTree(hit.formatted(UUID.randomUUID(),
                "2026-11-26T10:15:30.123Z")))).isNull();
        assertThat(schemas.violations("traffic.hits", mapper.readTree(hit.formatted(UUID.randomUUID(),
                "2026-02-30T10:15:30Z")))).isEqualTo("does not match the schema of traffic.hits (/observedAt format)");
        assertThat(schemas.violations("traffic.hits", mapper.readTree(hit.formatted("not-a-uuid",
                "2026-11-26T10:15:30Z")))).isEqualTo("does not match the schema of traffic.hits (/eventId format)");
    }

    private static boolean valid(Schema schema, String member, String value) {
        return schema.validate(JsonNodeFactory.instance.objectNode().put(member, value)).isEmpty();
    }
}

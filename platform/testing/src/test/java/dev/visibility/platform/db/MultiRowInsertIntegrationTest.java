package dev.visibility.platform.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.db.MultiRowInsert.Column;
import dev.visibility.platform.testapp.TestApplication;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.Test;

/**
 * Every value a column may hold reaches PostgreSQL unchanged through the rows' arrays: NULL, texts an
 * array literal must escape, the extremes of numbers, instants with microseconds, booleans, NaN and
 * infinities, JSON; and the conflict clause decides per row.
 */
@SpringBootTest(classes = TestApplication.class)
class MultiRowInsertIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    DatabaseClient db;

    private static final MultiRowInsert INSERT = new MultiRowInsert(
            "INSERT INTO multi_row_insert_test (id, name, at, flag, small, big, ratio, doc)", "ON CONFLICT (id) DO NOTHING",
            List.of(Column.of(UUID.class), Column.of(String.class), Column.of(Instant.class), Column.of(Boolean.class),
                    Column.of(Integer.class), Column.of(Long.class), Column.of(Double.class), Column.jsonb()));

    @Test
    void everyValueRoundTripsAndAConflictingRowIsSkipped() {
        db.sql("""
                CREATE TABLE IF NOT EXISTS multi_row_insert_test (id UUID PRIMARY KEY, name TEXT, at TIMESTAMPTZ,
                    flag BOOLEAN, small INTEGER, big BIGINT, ratio DOUBLE PRECISION, doc JSONB)""").then().block();
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {UUID.randomUUID(), "plain", Instant.parse("2026-11-27T06:30:00.123456Z"), true, 0, 0L, 0.5,
                "{\"a\": [1, \"two\"]}"});
        rows.add(new Object[] {UUID.randomUUID(), "quote \" backslash \\ braces {} comma , NULL é ✓ \n tab\t",
                Instant.parse("1970-01-01T00:00:00Z"), false, Integer.MIN_VALUE, Long.MAX_VALUE, Double.NaN,
                "{\"text\": \"he said \\\"hi\\\" \\\\ {x,y}\"}"});
        rows.add(new Object[] {UUID.randomUUID(), "", null, null, Integer.MAX_VALUE, Long.MIN_VALUE,
                Double.NEGATIVE_INFINITY, "[]"});
        rows.add(new Object[] {UUID.randomUUID(), null, Instant.parse("2026-01-02T03:04:05Z"), true, null, null, 1.0E-300,
                "null"});
        assertThat(INSERT.execute(db, rows).block()).isEqualTo(4);

        List<Object[]> again = new ArrayList<>();
        again.add(rows.get(0).clone());
        again.get(0)[1] = "changed";
        again.add(new Object[] {UUID.randomUUID(), "new", null, null, null, null, null, "{}"});
        assertThat(INSERT.execute(db, again).block()).isEqualTo(1);
        assertThat(INSERT.execute(db, List.of()).block()).isZero();

        for (Object[] row : rows) {
            Map<String, Object> stored = db.sql("""
                    SELECT name, at, flag, small, big, ratio, doc::text AS doc FROM multi_row_insert_test WHERE id = :id""")
                    .bind("id", row[0]).fetch().one().block();
            assertThat(stored).isNotNull();
            assertThat(stored.get("name")).isEqualTo(row[1]);
            assertThat(stored.get("at") == null ? null : ((java.time.OffsetDateTime) stored.get("at")).toInstant())
                    .isEqualTo(row[2]);
            assertThat(stored.get("flag")).isEqualTo(row[3]);
            assertThat(stored.get("small")).isEqualTo(row[4]);
            assertThat(stored.get("big")).isEqualTo(row[5]);
            assertThat(stored.get("ratio")).isEqualTo(row[6]);
            assertThat(JSON.readTree((String) stored.get("doc"))).isEqualTo(JSON.readTree((String) row[7]));
        }
    }

    @Test
    void insertedAnswersTheIdsOfTheRowsItInsertedWithDatesAndDecimalsUnchanged() {
        db.sql("CREATE TABLE IF NOT EXISTS multi_row_returning_test (id UUID PRIMARY KEY, day DATE, amount NUMERIC(6,2))")
                .then().block();
        MultiRowInsert insert = new MultiRowInsert("INSERT INTO multi_row_returning_test (id, day, amount)",
                "ON CONFLICT (id) DO NOTHING RETURNING id",
                List.of(Column.of(UUID.class), Column.of(LocalDate.class), Column.of(BigDecimal.class)));
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        assertThat(insert.inserted(db, List.of(new Object[] {first, LocalDate.of(2026, 2, 28), new BigDecimal("1234.50")},
                new Object[] {second, null, new BigDecimal("-0.01")}), "id", UUID.class).block())
                .containsExactlyInAnyOrder(first, second);
        UUID third = UUID.randomUUID();
        assertThat(insert.inserted(db, List.of(new Object[] {first, LocalDate.of(2027, 1, 1), BigDecimal.ONE},
                new Object[] {third, LocalDate.of(1999, 12, 31), new BigDecimal("1E+2")}), "id", UUID.class).block())
                .containsExactly(third);
        Map<String, Object> stored = db.sql("SELECT day, amount FROM multi_row_returning_test WHERE id = :id")
                .bind("id", first).fetch().one().block();
        assertThat(stored).containsEntry("day", LocalDate.of(2026, 2, 28)).containsEntry("amount", new BigDecimal("1234.50"));
        assertThat(db.sql("SELECT amount FROM multi_row_returning_test WHERE id = :id").bind("id", third)
                .map(row -> row.get(0, BigDecimal.class)).one().block()).isEqualByComparingTo("100");
    }

    @Test
    void aColumnTypeWithoutAnArrayTypeIsRefused() {
        assertThatThrownBy(() -> Column.of(Float.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Float");
        assertThat(Arrays.asList(Column.jsonb().arrayType(), Column.of(Instant.class).arrayType()))
                .containsExactly("jsonb[]", "timestamptz[]");
    }
}

package dev.visibility.platform.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import dev.visibility.platform.testapp.TestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.core.DatabaseClient;

/** The array literals as PostgreSQL reads them: every value comes back as it was, hostile texts included. */
@SpringBootTest(classes = TestApplication.class)
class ArrayLiteralsIntegrationTest {

    @Autowired
    DatabaseClient db;

    @Test
    void textsComeBackAsTheyWereQuotesBackslashesBracesCommasSpacesAndNullsIncluded() {
        String[] texts = {"plain", "with \"quotes\"", "back\\slash", "{braces}", "a,b", " spaced ", "", null, "NULL",
            "/docs/\u00fc/\u8def", "tab\there"};
        List<String> read = db.sql("SELECT coalesce(t, '<null>') AS t FROM unnest(:texts::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n")
                .bind("texts", ArrayLiterals.texts(texts))
                .map(row -> row.get("t", String.class))
                .all().collectList().block();
        assertThat(read).containsExactlyElementsOf(Arrays.stream(texts).map(t -> t == null ? "<null>" : t).toList());
    }

    @Test
    void uuidsAndNumbersComeBackAsTheyWere() {
        UUID[] uuids = {UUID.randomUUID(), null, UUID.randomUUID()};
        Long[] numbers = {Long.MIN_VALUE, -1L, null, 0L, Long.MAX_VALUE};
        assertThat(db.sql("SELECT array_to_string(:uuids::uuid[], ',', '-') AS u, array_to_string(:numbers::bigint[], ',', '-') AS n,"
                        + " cardinality(:empty::uuid[]) AS e")
                .bind("uuids", ArrayLiterals.uuids(uuids))
                .bind("numbers", ArrayLiterals.numbers(numbers))
                .bind("empty", ArrayLiterals.uuids(new UUID[0]))
                .map(row -> row.get("u", String.class) + "|" + row.get("n", String.class) + "|" + row.get("e", Integer.class))
                .one().block())
                .isEqualTo(uuids[0] + ",-," + uuids[2] + "|" + Long.MIN_VALUE + ",-1,-,0," + Long.MAX_VALUE + "|0");
    }

    @Test
    void aColumnWrittenElementByElementComesBackAsTheArraysDo() {
        UUID id = UUID.randomUUID();
        ArrayLiterals.Column uuids = new ArrayLiterals.Column(1, 36).uuid(id).uuid(null);
        ArrayLiterals.Column numbers = new ArrayLiterals.Column(1, 1).number(Long.MIN_VALUE).none().number(42);
        ArrayLiterals.Column texts = new ArrayLiterals.Column(1, 1).text("a \"b\" \\c").text(null).text("");
        assertThat(uuids.literal()).isEqualTo(ArrayLiterals.uuids(new UUID[] {id, null}));
        assertThat(numbers.literal()).isEqualTo(ArrayLiterals.numbers(new Long[] {Long.MIN_VALUE, null, 42L}));
        assertThat(db.sql("SELECT array_to_string(:uuids::uuid[], ',', '-') AS u, array_to_string(:numbers::bigint[], ',', '-') AS n,"
                        + " array_to_string(:texts::text[], '|', '-') AS t, cardinality(:empty::bigint[]) AS e")
                .bind("uuids", uuids.literal())
                .bind("numbers", numbers.literal())
                .bind("texts", texts.literal())
                .bind("empty", new ArrayLiterals.Column(0, 1).literal())
                .map(row -> row.get("u", String.class) + "/" + row.get("n", String.class) + "/" + row.get("t", String.class)
                        + "/" + row.get("e", Integer.class))
                .one().block())
                .isEqualTo(id + ",-/" + Long.MIN_VALUE + ",-,42/a \"b\" \\c|-|/0");
    }
}

package dev.visibility.traffic.hits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.r2dbc.core.DatabaseClient;

/**
 * The batch's write statement ({@link HitIngestion#APPLY}) on stored and missing rows: a moved session
 * keeps the later of its stored and new last days, one the retention sweep removed after the lookup is
 * inserted again, a stored day row gets the batch's counts added and a new one is inserted with them.
 */
class HitWritesTest extends HitStatementTest {

    @Test
    void movedSessionsAndDayRowsAreUpdatedWhereStoredAndInsertedWhereNot() {
        LocalDate yesterday = LocalDate.of(2026, 11, 27);
        LocalDate today = yesterday.plusDays(1);
        UUID project = UUID.randomUUID();
        UUID stored = UUID.randomUUID();
        UUID storedLater = UUID.randomUUID();
        UUID swept = UUID.randomUUID();
        db.sql("INSERT INTO traffic_sessions (key, last_day, last_bot_day, last_referral_day) VALUES "
                        + "(:a, :yesterday, :yesterday, NULL), (:b, :today, NULL, :today)")
                .bind("a", stored).bind("b", storedLater).bind("yesterday", yesterday).bind("today", today)
                .then().block();
        db.sql("INSERT INTO traffic_days (project_id, hostname, prefix, day, total_events, bot_events, referral_events,"
                        + " sessions, bot_sessions, referral_sessions) VALUES (:p, 'a.example', '/docs', :today, 10, 6, 4, 3, 2, 1)")
                .bind("p", project).bind("today", today).then().block();

        Map<String, String> arrays = new HashMap<>();
        // moved: a stored session to today (a bot hit), a stored one to yesterday (older: kept), a swept one
        arrays.put("mKey", "{" + stored + "," + storedLater + "," + swept + "}");
        arrays.put("mDay", "{" + day(today) + "," + day(yesterday) + "," + day(today) + "}");
        arrays.put("mBot", "{" + day(today) + ",NULL,NULL}");
        arrays.put("mRef", "{NULL," + day(yesterday) + "," + day(today) + "}");
        // day rows: the stored one and a new one
        arrays.put("cProject", "{" + project + "," + project + "}");
        arrays.put("cHost", "{a.example,a.example}");
        arrays.put("cPrefix", "{/docs,/docs/a}");
        arrays.put("cDay", "{" + day(today) + "," + day(today) + "}");
        arrays.put("cTotal", "{5,7}");
        arrays.put("cBot", "{3,7}");
        arrays.put("cRef", "{2,0}");
        arrays.put("cSessions", "{1,2}");
        arrays.put("cBotSessions", "{1,2}");
        arrays.put("cRefSessions", "{0,0}");
        apply(arrays);

        assertThat(session(stored)).containsExactly(today, today, null);
        assertThat(session(storedLater)).containsExactly(today, null, today);
        assertThat(session(swept)).containsExactly(today, null, today);
        assertThat(dayRow(project, "/docs", today)).containsExactly(15L, 9L, 6L, 4L, 3L, 1L);
        assertThat(dayRow(project, "/docs/a", today)).containsExactly(7L, 7L, 0L, 2L, 2L, 0L);
    }

    /** Runs the statement in a batch transaction, every array not in {@code arrays} empty. */
    private void apply(Map<String, String> arrays) {
        Matcher parameter = Pattern.compile(":(\\w+)::\\w+\\[]").matcher(HitIngestion.APPLY);
        DatabaseClient.GenericExecuteSpec spec = db.sql(HitIngestion.APPLY);
        while (parameter.find()) {
            spec = spec.bind(parameter.group(1), arrays.getOrDefault(parameter.group(1), "{}"));
        }
        inBatchTransaction(spec.then()).blockLast();
    }

    private List<Long> dayRow(UUID project, String prefix, LocalDate day) {
        return db.sql("SELECT total_events, bot_events, referral_events, sessions, bot_sessions, referral_sessions"
                        + " FROM traffic_days WHERE project_id = :p AND hostname = 'a.example' AND prefix = :prefix AND day = :day")
                .bind("p", project).bind("prefix", prefix).bind("day", day)
                .map(row -> List.of(row.get(0, Long.class), row.get(1, Long.class), row.get(2, Long.class),
                        row.get(3, Long.class), row.get(4, Long.class), row.get(5, Long.class)))
                .one().block();
    }

    /** A day as the statement's arrays carry it: days since 1970-01-01. */
    private static long day(LocalDate day) {
        return day.toEpochDay();
    }
}

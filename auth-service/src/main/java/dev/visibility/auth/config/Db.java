package dev.visibility.auth.config;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * auth-service reads and writes its schema over JDBC ({@code JdbcClient} on HikariCP, see
 * {@link JdbcConfiguration}); these are the conversions its repositories share.
 */
public final class Db {

    /** The longest a statement may run (PostgreSQL's {@code statement_timeout} of every pooled connection). */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private Db() {
    }

    public static UUID uuid(ResultSet row, String column) throws SQLException {
        return row.getObject(column, UUID.class);
    }

    public static Instant instant(ResultSet row, String column) throws SQLException {
        Timestamp value = row.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    public static Timestamp timestamp(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }

    /** A {@code text[]} column; null stays null. */
    public static List<String> nullableTexts(ResultSet row, String column) throws SQLException {
        Array array = row.getArray(column);
        if (array == null) {
            return null;
        }
        try {
            return List.copyOf(Arrays.asList((String[]) array.getArray()));
        } finally {
            array.free();
        }
    }

    /** A {@code text[]} column; null is the empty list. */
    public static List<String> texts(ResultSet row, String column) throws SQLException {
        List<String> values = nullableTexts(row, column);
        return values == null ? List.of() : values;
    }
}

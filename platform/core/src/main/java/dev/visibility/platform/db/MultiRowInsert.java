package dev.visibility.platform.db;

import java.time.Instant;
import java.time.LocalDate;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Mono;

/**
 * Inserts many rows with one statement: each column's values as one array parameter (a PostgreSQL
 * array literal, {@link ArrayLiterals}), spread into rows by {@code unnest}, so that the statement's
 * text and its parameters are the same whatever the number of rows. With a parameter per value (a
 * multi-row {@code VALUES}), a tracking run of 24 samples had 360 parameters, each named, parsed,
 * bound and encoded one by one: more work than everything else the ingestion does
 * (bench/TrackingRunBench.md).
 */
public final class MultiRowInsert {

    /** The array types of the column types a statement may use. */
    private static final Map<Class<?>, String> ARRAY_TYPES = Map.of(UUID.class, "uuid[]", String.class, "text[]",
            Instant.class, "timestamptz[]", LocalDate.class, "date[]", Boolean.class, "boolean[]", Integer.class, "int[]",
            Long.class, "bigint[]", Double.class, "float8[]", BigDecimal.class, "numeric[]");

    /** A column: the Java type of its values and the PostgreSQL array type its parameter is cast to. */
    public record Column(Class<?> type, String arrayType) {

        public static Column of(Class<?> type) {
            String arrayType = ARRAY_TYPES.get(type);
            if (arrayType == null) {
                throw new IllegalArgumentException("No array type for " + type.getName());
            }
            return new Column(type, arrayType);
        }

        /** JSON text, stored as {@code jsonb}. */
        public static Column jsonb() {
            return new Column(String.class, "jsonb[]");
        }
    }

    private final List<Column> columns;
    private final String sql;

    /**
     * @param head    {@code INSERT INTO t (a, b, c)}
     * @param tail    what follows the rows, for example {@code ON CONFLICT DO NOTHING}
     * @param columns the columns of {@code head}, in its order
     */
    public MultiRowInsert(String head, String tail, List<Column> columns) {
        this.columns = List.copyOf(columns);
        StringBuilder sql = new StringBuilder(head).append(" SELECT * FROM unnest(");
        for (int c = 0; c < columns.size(); c++) {
            sql.append(c == 0 ? "" : ", ").append(":c").append(c).append("::").append(columns.get(c).arrayType());
        }
        this.sql = sql.append(") ").append(tail).toString();
    }

    /** Inserts the rows (each an array of values in column order, null for NULL) and answers how many were inserted. */
    public Mono<Long> execute(DatabaseClient db, List<Object[]> rows) {
        return rows.isEmpty() ? Mono.just(0L) : statement(db, rows).fetch().rowsUpdated();
    }

    /**
     * Inserts the rows and answers the {@code column} of each row inserted (the statement's tail ends
     * with {@code RETURNING column}).
     */
    public <T> Mono<Set<T>> inserted(DatabaseClient db, List<Object[]> rows, String column, Class<T> type) {
        if (rows.isEmpty()) {
            return Mono.just(new HashSet<>());
        }
        return statement(db, rows).map(row -> row.get(column, type)).all().collect(HashSet::new, Set::add);
    }

    private DatabaseClient.GenericExecuteSpec statement(DatabaseClient db, List<Object[]> rows) {
        ArrayLiterals.Column[] values = new ArrayLiterals.Column[columns.size()];
        for (int c = 0; c < values.length; c++) {
            values[c] = new ArrayLiterals.Column(rows.size(), 24);
        }
        for (Object[] row : rows) {
            for (int c = 0; c < values.length; c++) {
                append(values[c], row[c]);
            }
        }
        DatabaseClient.GenericExecuteSpec spec = db.sql(sql);
        for (int c = 0; c < values.length; c++) {
            spec = spec.bind("c" + c, values[c].literal());
        }
        return spec;
    }

    private static void append(ArrayLiterals.Column column, Object value) {
        if (value == null) {
            column.none();
        } else if (value instanceof UUID uuid) {
            column.uuid(uuid);
        } else if (value instanceof Integer || value instanceof Long) {
            column.number(((Number) value).longValue());
        } else {
            // Instant's ISO 8601 (…T…Z), LocalDate's, Boolean's true/false, Double's digits (NaN, Infinity
            // included) and BigDecimal's are texts PostgreSQL's input functions read as timestamptz, date,
            // boolean, float8 and numeric
            column.text(value.toString());
        }
    }
}

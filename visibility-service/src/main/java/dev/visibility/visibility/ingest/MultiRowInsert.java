package dev.visibility.visibility.ingest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.r2dbc.spi.Parameters;

import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Inserts many rows with few round trips: multi-row {@code VALUES} statements of at most
 * {@code rowsPerStatement} rows, executed one after the other in the caller's transaction.
 *
 * @param head    {@code INSERT INTO t (a, b, c)}
 * @param tail    what follows the values, for example {@code ON CONFLICT DO NOTHING}
 * @param columns the type of each column's values (for binding nulls) and an optional SQL cast
 */
public record MultiRowInsert(String head, String tail, List<Column> columns, int rowsPerStatement) {

    /** @param cast appended to the placeholder, for example {@code ::jsonb}; empty for none */
    public record Column(Class<?> type, String cast) {

        public static Column of(Class<?> type) {
            return new Column(type, "");
        }

        public static Column jsonb() {
            return new Column(String.class, "::jsonb");
        }
    }

    /** Inserts the rows (each an array in column order) and answers how many were inserted. */
    public Mono<Long> execute(DatabaseClient db, List<Object[]> rows) {
        if (rows.isEmpty()) {
            return Mono.just(0L);
        }
        List<List<Object[]>> chunks = new ArrayList<>();
        for (int i = 0; i < rows.size(); i += rowsPerStatement) {
            chunks.add(rows.subList(i, Math.min(rows.size(), i + rowsPerStatement)));
        }
        return Flux.fromIterable(chunks).concatMap(chunk -> statement(db, chunk).fetch().rowsUpdated())
                .reduce(0L, Long::sum);
    }

    private DatabaseClient.GenericExecuteSpec statement(DatabaseClient db, List<Object[]> chunk) {
        StringBuilder sql = new StringBuilder(head).append(" VALUES ");
        // all values bound in one call: each bind(name, value) copies the bindings made so far, which for
        // the thousands of values of a statement cost more than everything else an ingestion does
        Map<String, Object> values = new HashMap<>(chunk.size() * columns.size() * 4 / 3 + 1);
        for (int r = 0; r < chunk.size(); r++) {
            Object[] row = chunk.get(r);
            sql.append(r == 0 ? "(" : ", (");
            for (int c = 0; c < columns.size(); c++) {
                String name = "r" + r + "c" + c;
                sql.append(c == 0 ? ":" : ", :").append(name).append(columns.get(c).cast());
                values.put(name, row[c] == null ? Parameters.in(columns.get(c).type()) : row[c]);
            }
            sql.append(')');
        }
        sql.append(' ').append(tail);
        return db.sql(sql.toString()).bindValues(values);
    }
}

package dev.visibility.platform.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * For benchmarks: what the shared embedded PostgreSQL's statements cost in a measured phase, from
 * {@code pg_stat_statements}, when the JVM was started with
 * {@code -Dpostgres.server.shared_preload_libraries=pg_stat_statements} (without it, nothing is
 * counted or printed).
 */
public final class BenchStatements {

    private BenchStatements() {
    }

    /**
     * Creates the extension and forgets what it counted so far, so that {@link #print} shows the phase
     * that starts now; false (and nothing done) when the library is not loaded.
     */
    public static boolean reset() throws SQLException {
        try (Connection db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl()); Statement s = db.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT current_setting('shared_preload_libraries') LIKE '%pg_stat_statements%'")) {
                rs.next();
                if (!rs.getBoolean(1)) {
                    return false;
                }
            }
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            s.execute("SELECT pg_stat_statements_reset()");
            return true;
        }
    }

    /**
     * Prints the statements that took the most of PostgreSQL's time since {@link #reset}, each per
     * {@code unit} of work done ({@code units} of them: hits applied, deliveries made).
     */
    public static void print(String unit, long units) throws SQLException {
        try (Connection db = DriverManager.getConnection(SharedInfrastructure.jdbcUrl()); Statement s = db.createStatement();
                ResultSet rs = s.executeQuery("""
                        SELECT calls, total_exec_time, total_plan_time, shared_blks_hit + shared_blks_read AS blocks,
                               wal_bytes, regexp_replace(left(query, 90), '\\s+', ' ', 'g') AS query
                        FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT 8""")) {
            System.out.printf("STATEMENTS (pg_stat_statements, measured phase; time in µs per %s):%n", unit);
            while (rs.next()) {
                System.out.printf("  %7.1f µs exec %5.1f plan %,9d calls %6.1f blocks/%s %6.0f WAL B/%s  %s%n",
                        rs.getDouble(2) * 1000 / units, rs.getDouble(3) * 1000 / units, rs.getLong(1),
                        rs.getDouble(4) / units, unit, rs.getDouble(5) / units, unit, rs.getString(6));
            }
        }
    }
}

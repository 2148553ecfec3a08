package dev.visibility.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The database of {@code ./suite cds-train}'s training runs, against a real PostgreSQL: made afresh by
 * {@code create} (what an interrupted trainer left is gone), removed by {@code drop} (also when absent), and no
 * other database can be named.
 */
class TrainingDatabaseIntegrationTest {

    static EmbeddedPostgres postgres;

    @BeforeAll
    static void startPostgres() throws IOException {
        postgres = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stopPostgres() throws IOException {
        postgres.close();
    }

    @Test
    void createMakesTheDatabaseAfreshAndDropRemovesIt() throws SQLException {
        TrainingDatabase database = new TrainingDatabase(env());

        assertThat(database.run("create", "suite_training")).isZero();
        assertThat(databases()).containsEntry("suite_training", "postgres");
        try (Connection connection = postgres.getDatabase("postgres", "suite_training").getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE left_by_a_killed_trainer (id int)");
        }

        assertThat(database.run("create", "suite_training")).isZero();
        try (Connection connection = postgres.getDatabase("postgres", "suite_training").getConnection();
                Statement statement = connection.createStatement();
                ResultSet tables = statement.executeQuery(
                        "SELECT count(*) FROM pg_tables WHERE tablename = 'left_by_a_killed_trainer'")) {
            tables.next();
            assertThat(tables.getInt(1)).isZero();
        }

        assertThat(database.run("drop", "suite_training")).isZero();
        assertThat(databases()).doesNotContainKey("suite_training");
        assertThat(database.run("drop", "suite_training")).isZero();
    }

    @Test
    void onlyATrainingDatabaseCanBeNamed() throws SQLException {
        TrainingDatabase database = new TrainingDatabase(env());
        for (String name : new String[] {"postgres", "suite", "suite_training; DROP DATABASE postgres", "Suite_training",
                "_training"}) {
            assertThatThrownBy(() -> database.run("drop", name)).isInstanceOfSatisfying(CliException.class,
                    e -> assertThat(e.exitCode()).isEqualTo(2));
        }
        assertThat(databases()).containsKey("postgres");
    }

    @Test
    void theSuiteCliRunsItAndAnswersAClearErrorWithoutTheSettings() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = SuiteCli.run(new String[] {"training-database", "create", "suite_training"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        // this JVM's environment has none of the SUITE_DB_* settings: ./suite sets them
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("is not set (./suite sets it)");
    }

    @Test
    void anUnknownActionAndAnUnreachableServerAreRefusedWithTheirExitCodes() {
        assertThatThrownBy(() -> new TrainingDatabase(env()).run("truncate", "suite_training"))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.exitCode()).isEqualTo(2));

        Map<String, String> closed = env();
        closed.put("SUITE_DB_PORT", "1");
        assertThatThrownBy(() -> new TrainingDatabase(closed).run("create", "suite_training"))
                .isInstanceOfSatisfying(CliException.class, e -> {
                    assertThat(e.exitCode()).isEqualTo(1);
                    assertThat(e.getMessage()).startsWith("training database: ").doesNotContain("not-a-secret");
                });
    }

    private static Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("SUITE_DB_HOST", "localhost");
        env.put("SUITE_DB_PORT", Integer.toString(postgres.getPort()));
        env.put("SUITE_DB_NAME", "postgres");
        env.put("SUITE_DB_USERNAME", "postgres");
        // the embedded server trusts local connections; the value is still required and never printed
        env.put("SUITE_DB_PASSWORD", "not-a-secret");
        return env;
    }

    /** Database name → owner. */
    private static Map<String, String> databases() throws SQLException {
        Map<String, String> databases = new HashMap<>();
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT datname, pg_get_userbyid(datdba) FROM pg_database")) {
            while (rows.next()) {
                databases.put(rows.getString(1), rows.getString(2));
            }
        }
        return databases;
    }
}

package dev.visibility.local;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The database of the suite's training runs ({@code ./suite cds-train}): {@code training-database create NAME}
 * makes it afresh (dropping what an interrupted trainer left), {@code training-database drop NAME} removes it, its
 * connections included. Internal: {@code ./suite} runs it with the suite's database settings in the environment
 * ({@code SUITE_DB_HOST}, {@code SUITE_DB_PORT}, {@code SUITE_DB_USERNAME}, {@code SUITE_DB_PASSWORD}; the password
 * never on a command line), connected to the suite's own database. Only names ending in {@code _training} are
 * accepted, so that no slip can drop the suite's data.
 */
final class TrainingDatabase {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,40}_training");
    private static final int CONNECT_TIMEOUT_SECONDS = 10;

    private final Map<String, String> env;

    TrainingDatabase(Map<String, String> env) {
        this.env = env;
    }

    int run(String action, String name) {
        if (!NAME.matcher(name).matches()) {
            throw new CliException(2, "not a training database name (lower case, ending in _training): " + name);
        }
        String drop = "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)";
        switch (action) {
            case "create" -> execute(drop, "CREATE DATABASE " + name + " OWNER " + required("SUITE_DB_USERNAME"));
            case "drop" -> execute(drop);
            default -> throw new CliException(2, "training-database create|drop NAME, not: " + action);
        }
        return 0;
    }

    private void execute(String... statements) {
        String url = "jdbc:postgresql://" + required("SUITE_DB_HOST") + ":" + required("SUITE_DB_PORT") + "/"
                + env.getOrDefault("SUITE_DB_NAME", "suite");
        Properties properties = new Properties();
        properties.setProperty("user", required("SUITE_DB_USERNAME"));
        properties.setProperty("password", required("SUITE_DB_PASSWORD"));
        properties.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
        properties.setProperty("socketTimeout", "60");
        try (Connection connection = DriverManager.getConnection(url, properties);
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            // the driver's message names the server's reason, never the password
            throw new CliException(1, "training database: " + e.getMessage());
        }
    }

    private String required(String variable) {
        String value = env.get(variable);
        if (value == null || value.isBlank()) {
            throw new CliException(2, variable + " is not set (./suite sets it)");
        }
        return value;
    }
}

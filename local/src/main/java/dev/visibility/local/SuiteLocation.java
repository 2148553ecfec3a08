package dev.visibility.local;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where a running suite is and who its demo user is: the state directory ({@code -Dsuite.state},
 * default {@code .local}), the gateway ({@code -Dsuite.gateway}, default {@code gatewayUrl} of
 * {@code credentials.json}), the broker ({@code -Dsuite.kafka}, default {@code 127.0.0.1:9092}) and
 * the demo ids and key of {@code credentials.json} (the ids also from {@code demo.env}).
 */
record SuiteLocation(Path stateDir, String gatewayUrl, String kafkaBootstrap, Map<String, String> credentials) {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern ENV_LINE = Pattern.compile("^([A-Z_]+)='?([^']*)'?$");

    static SuiteLocation fromSystemProperties() {
        Path state = Path.of(System.getProperty("suite.state", ".local")).toAbsolutePath().normalize();
        Map<String, String> credentials = new LinkedHashMap<>();
        Path demoEnv = state.resolve("demo.env");
        if (Files.isRegularFile(demoEnv)) {
            Map<String, String> env = readEnv(demoEnv);
            putIfPresent(credentials, "accountId", env.get("SUITE_DEMO_ACCOUNT_ID"));
            putIfPresent(credentials, "projectId", env.get("SUITE_DEMO_PROJECT_ID"));
            putIfPresent(credentials, "otherProjectId", env.get("SUITE_DEMO_OTHER_PROJECT_ID"));
        }
        Path file = state.resolve("credentials.json");
        if (Files.isRegularFile(file)) {
            try {
                JsonNode root = JSON.readTree(Files.readString(file));
                for (Map.Entry<String, JsonNode> field : root.properties()) {
                    if (field.getValue().isString()) {
                        credentials.put(field.getKey(), field.getValue().asString());
                    }
                }
            } catch (IOException | JacksonException e) {
                throw new CliException(1, "cannot read " + file + " (" + e.getClass().getSimpleName() + "); ./suite up writes it again");
            }
        }
        String gateway = System.getProperty("suite.gateway", credentials.getOrDefault("gatewayUrl", "http://127.0.0.1:8080"));
        String kafka = System.getProperty("suite.kafka", "127.0.0.1:9092");
        return new SuiteLocation(state, stripSlash(gateway), kafka, credentials);
    }

    /** A value of credentials.json (or demo.env), or a clear error naming what is missing. */
    String credential(String name) {
        String value = credentials.get(name);
        if (value == null || value.isBlank()) {
            throw new CliException(1, "no " + name + " in " + stateDir.resolve("credentials.json")
                    + ": is the suite up? (./suite up writes it)");
        }
        return value;
    }

    /** Fails with a clear message when nothing listens on the broker's address. */
    void requireKafka() {
        String host = kafkaBootstrap.substring(0, kafkaBootstrap.lastIndexOf(':'));
        int port = Integer.parseInt(kafkaBootstrap.substring(kafkaBootstrap.lastIndexOf(':') + 1));
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 2_000);
        } catch (IOException e) {
            throw new CliException(1, "the suite is not up: nothing answers on Kafka's address " + kafkaBootstrap
                    + " (./suite up starts it, ./suite status shows what runs)");
        }
    }

    private static Map<String, String> readEnv(Path file) {
        Map<String, String> env = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                Matcher m = ENV_LINE.matcher(line.trim());
                if (m.matches()) {
                    env.put(m.group(1), m.group(2));
                }
            }
        } catch (IOException e) {
            throw new CliException(1, "cannot read " + file + ": " + e.getMessage());
        }
        return env;
    }

    private static void putIfPresent(Map<String, String> map, String key, String value) {
        if (value != null && !value.isBlank()) {
            map.put(key, value);
        }
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}

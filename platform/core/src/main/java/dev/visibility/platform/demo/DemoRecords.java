package dev.visibility.platform.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.visibility.platform.events.StringProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;

/**
 * What every service's local demo does the same way: publish its records through the ingestion
 * topics exactly as the internal producers would (JSON values, keyed), wait for the broker's
 * acknowledgement, and write the ready-to-paste example requests that {@code ./suite} merges into
 * {@code .local/credentials.json}. Demo data never writes a table directly.
 */
public final class DemoRecords {

    private static final Logger log = LoggerFactory.getLogger(DemoRecords.class);

    private final StringProducer producer;
    private final ObjectMapper mapper;
    private final List<CompletableFuture<?>> sent = new ArrayList<>();

    public DemoRecords(StringProducer producer, ObjectMapper mapper) {
        this.producer = producer;
        this.mapper = mapper;
    }

    /** Sends {@code record} as JSON to {@code topic} with {@code key}; {@link #await} waits for all. */
    public DemoRecords send(String topic, String key, Object record) {
        sent.add(producer.template().send(topic, key, mapper.writeValueAsString(record)));
        return this;
    }

    /** Waits until the broker acknowledged every record sent; answers how many. */
    public int await(Duration within) throws InterruptedException, ExecutionException, TimeoutException {
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(within.toMillis(), TimeUnit.MILLISECONDS);
        return sent.size();
    }

    /** Runs {@code publishing} on a daemon thread, so that the service's start-up does not wait for it. */
    public static void inBackground(String name, Runnable publishing) {
        Thread thread = new Thread(publishing, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Writes {@code {"examples": {name: request}}} to {@code path} (atomically; one pair a line, so
     * that the suite can merge it); nothing when {@code path} is null.
     */
    public static void writeExamples(Path path, Map<String, String> examples, ObjectMapper mapper) {
        if (path == null) {
            return;
        }
        try {
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            String json = "{\n  \"examples\": " + mapper.writeValueAsString(examples) + "\n}\n";
            Path temporary = path.resolveSibling(path.getFileName() + ".tmp");
            Files.writeString(temporary, json);
            Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            log.info("Demo example requests written to {}", path);
        } catch (IOException e) {
            log.warn("Could not write the demo example requests to {}: {}", path, e.toString());
        }
    }
}

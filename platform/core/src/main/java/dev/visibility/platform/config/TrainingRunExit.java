package dev.visibility.platform.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.IntConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.kafka.listener.ListenerContainerRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The local suite's training runs ({@code ./suite cds-train}, after an {@code up}, on a broker and a database of
 * their own): with {@code suite.training.exit-when-ready=true} the application runs until it is ready and every
 * running Kafka listener container has been assigned its partitions (at most
 * {@code suite.training.assignment-timeout}, 30 s), then closes and the JVM exits. The class-data archive or
 * ahead-of-time cache the JVM writes at exit then holds what a whole start loads: the web servers, the pools, the
 * consumers' group membership and first fetch. Spring's own {@code spring.context.exit=onRefresh} stops before all
 * of those, and the classes a start then loads from the jars cost it about a tenth of its CPU time
 * (bench/ServiceStart.md, sessions 39 and 40).
 *
 * <p>Registered in {@code META-INF/spring.factories}, not as a bean: it reads the property when the event comes, so
 * the services' Spring AOT bean definitions (fixed at build time) do not decide it. Without the property it does
 * nothing.
 */
public class TrainingRunExit implements ApplicationListener<ApplicationReadyEvent> {

    static final String PROPERTY = "suite.training.exit-when-ready";
    static final String TIMEOUT_PROPERTY = "suite.training.assignment-timeout";

    private static final Logger log = LoggerFactory.getLogger(TrainingRunExit.class);
    private static final Duration LOOK_EVERY = Duration.ofMillis(100);

    private final IntConsumer exit;

    public TrainingRunExit() {
        this(System::exit);
    }

    TrainingRunExit(IntConsumer exit) {
        this.exit = exit;
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        ApplicationContext context = event.getApplicationContext();
        if (!context.getEnvironment().getProperty(PROPERTY, Boolean.class, false)) {
            return;
        }
        // as Boot reads durations ("30s", "300ms"), whatever conversion service the environment has
        Duration timeout = DurationStyle.detectAndParse(context.getEnvironment().getProperty(TIMEOUT_PROPERTY, "30s"));
        // not on the thread that publishes the event: SpringApplication.run returns first, then the context closes
        Thread thread = new Thread(() -> {
            awaitAssignments(context, timeout);
            askReadiness(context);
            exit.accept(SpringApplication.exit(context));
        }, "training-run-exit");
        thread.start();
    }

    private static void awaitAssignments(ApplicationContext context, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> waiting = unassigned(context);
        while (!waiting.isEmpty() && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(LOOK_EVERY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            waiting = unassigned(context);
        }
        if (waiting.isEmpty()) {
            log.info("Ready and every listener container assigned: training run over, exiting ({})", PROPERTY);
        } else {
            log.warn("Training run over after {} without partitions for {}; exiting ({})", timeout, waiting, PROPERTY);
        }
    }

    /**
     * Asks the service's readiness endpoint once, as {@code ./suite up} does after every start: the HTTP codec, the
     * web stack's request path and the health JSON then come from the cache too (outcomes-service: 395 classes from
     * the jars instead of 1,092 of about 19,000). A run without a web server, or a question that fails, just goes on.
     */
    private static void askReadiness(ApplicationContext context) {
        String port = context.getEnvironment().getProperty("local.management.port",
                context.getEnvironment().getProperty("local.server.port", ""));
        if (port.isEmpty()) {
            return;
        }
        String basePath = context.getEnvironment().getProperty("management.endpoints.web.base-path", "/actuator");
        String host = context.getEnvironment().getProperty("management.server.address",
                context.getEnvironment().getProperty("server.address", "127.0.0.1"));
        try {
            HttpURLConnection connection = (HttpURLConnection) URI
                    .create("http://" + host + ":" + port + basePath + "/health/readiness").toURL().openConnection();
            connection.setConnectTimeout(5_000);
            connection.setReadTimeout(5_000);
            try (InputStream body = connection.getResponseCode() < 400 ? connection.getInputStream()
                    : connection.getErrorStream()) {
                if (body != null) {
                    body.readAllBytes();
                }
            } finally {
                connection.disconnect();
            }
        } catch (IOException | RuntimeException e) {
            log.debug("Training run: readiness not asked ({})", e.toString());
        }
    }

    /** The ids of the running listener containers that have no partition yet. */
    static List<String> unassigned(ApplicationContext context) {
        List<String> waiting = new ArrayList<>();
        for (ListenerContainerRegistry registry : context.getBeanProvider(ListenerContainerRegistry.class)) {
            for (MessageListenerContainer container : registry.getAllListenerContainers()) {
                if (!container.isRunning()) {
                    continue;
                }
                Collection<?> assigned = container.getAssignedPartitions();
                if (assigned == null || assigned.isEmpty()) {
                    waiting.add(container.getListenerId());
                }
            }
        }
        return waiting;
    }
}

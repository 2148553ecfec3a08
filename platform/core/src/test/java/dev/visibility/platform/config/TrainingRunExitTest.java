package dev.visibility.platform.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

import com.sun.net.httpserver.HttpServer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.kafka.listener.ListenerContainerRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.mock.env.MockEnvironment;

/**
 * The local suite's training run ({@code ./suite cds-train}) ends once the application is ready and its running
 * listener containers have partitions, or at its time-out; and only a training run does (the listener is registered
 * in every service through spring.factories).
 */
class TrainingRunExitTest {

    @Test
    void aTrainingRunWaitsForEveryRunningContainersPartitionsThenClosesAndExitsWithItsCode() throws Exception {
        FakeContainer waiting = new FakeContainer("outcomes-service", true);
        FakeContainer stopped = new FakeContainer("webhook-delivery-retry", false); // not started: not waited for
        GenericApplicationContext context = context(training("30s"), waiting, stopped);
        CompletableFuture<Integer> exited = new CompletableFuture<>();

        new TrainingRunExit(exited::complete).onApplicationEvent(ready(context));

        await().atMost(Duration.ofSeconds(10)).until(() -> waiting.looks.get() >= 3);
        assertThat(exited).isNotDone();
        assertThat(context.isActive()).isTrue();
        assertThat(TrainingRunExit.unassigned(context)).containsExactly("outcomes-service");

        waiting.assigned = Set.of(new TopicPartition("public.events", 0));

        assertThat(exited.get(10, TimeUnit.SECONDS)).isZero();
        assertThat(context.isActive()).isFalse();
    }

    @Test
    void aContainerThatGetsNoPartitionEndsTheRunAtTheTimeOut() throws Exception {
        FakeContainer never = new FakeContainer("traffic-service", true);
        GenericApplicationContext context = context(training("300ms"), never);
        CompletableFuture<Integer> exited = new CompletableFuture<>();
        long started = System.nanoTime();

        new TrainingRunExit(exited::complete).onApplicationEvent(ready(context));

        assertThat(exited.get(10, TimeUnit.SECONDS)).isZero();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(context.isActive()).isFalse();
    }

    @Test
    void theRunAsksItsReadinessEndpointOnceBeforeItExits() throws Exception {
        List<String> asked = new CopyOnWriteArrayList<>();
        HttpServer management = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        management.createContext("/actuator/health/readiness", exchange -> {
            asked.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            byte[] body = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        management.start();
        try {
            MockEnvironment environment = training("30s")
                    .withProperty("local.management.port", Integer.toString(management.getAddress().getPort()))
                    .withProperty("local.server.port", "1");
            GenericApplicationContext context = context(environment);
            CompletableFuture<Integer> exited = new CompletableFuture<>();

            new TrainingRunExit(code -> {
                asked.add("exit " + code);
                exited.complete(code);
            }).onApplicationEvent(ready(context));

            assertThat(exited.get(10, TimeUnit.SECONDS)).isZero();
            assertThat(asked).containsExactly("GET /actuator/health/readiness", "exit 0");
        } finally {
            management.stop(0);
        }
    }

    @Test
    void aRunWithoutAWebServerExitsAllTheSame() throws Exception {
        GenericApplicationContext context = context(training("30s"));
        CompletableFuture<Integer> exited = new CompletableFuture<>();

        new TrainingRunExit(exited::complete).onApplicationEvent(ready(context));

        assertThat(exited.get(10, TimeUnit.SECONDS)).isZero();
        assertThat(context.isActive()).isFalse();
    }

    @Test
    void withoutThePropertyNothingHappens() {
        assertNoTrainingRun(new MockEnvironment());
    }

    @Test
    void falseIsNoTrainingRun() {
        assertNoTrainingRun(new MockEnvironment().withProperty(TrainingRunExit.PROPERTY, "false"));
    }

    private static void assertNoTrainingRun(MockEnvironment environment) {
        FakeContainer container = new FakeContainer("outcomes-service", true);
        GenericApplicationContext context = context(environment, container);
        CompletableFuture<Integer> exited = new CompletableFuture<>();

        new TrainingRunExit(exited::complete).onApplicationEvent(ready(context));

        assertThat(exited).isNotDone();
        assertThat(container.looks.get()).isZero();
        assertThat(context.isActive()).isTrue();
        context.close();
    }

    private static MockEnvironment training(String timeout) {
        return new MockEnvironment().withProperty(TrainingRunExit.PROPERTY, "true")
                .withProperty(TrainingRunExit.TIMEOUT_PROPERTY, timeout);
    }

    private static GenericApplicationContext context(MockEnvironment environment, FakeContainer... containers) {
        GenericApplicationContext context = new GenericApplicationContext();
        context.setEnvironment(environment);
        context.registerBean(ListenerContainerRegistry.class, () -> new FakeRegistry(List.<MessageListenerContainer>of(containers)));
        context.refresh();
        return context;
    }

    private static ApplicationReadyEvent ready(GenericApplicationContext context) {
        return new ApplicationReadyEvent(new SpringApplication(), new String[0], context, Duration.ofSeconds(1));
    }

    private static final class FakeContainer implements MessageListenerContainer {

        private final String id;
        private final boolean running;
        private final AtomicInteger looks = new AtomicInteger();
        private volatile Collection<TopicPartition> assigned = Set.of();

        FakeContainer(String id, boolean running) {
            this.id = id;
            this.running = running;
        }

        @Override
        public Collection<TopicPartition> getAssignedPartitions() {
            looks.incrementAndGet();
            return assigned;
        }

        @Override
        public String getListenerId() {
            return id;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public void setupMessageListener(Object messageListener) {
        }

        @Override
        public Map<String, Map<MetricName, ? extends Metric>> metrics() {
            return Map.of();
        }

        @Override
        public void start() {
        }

        @Override
        public void stop() {
        }
    }

    private record FakeRegistry(List<MessageListenerContainer> containers) implements ListenerContainerRegistry {

        @Override
        public Collection<MessageListenerContainer> getAllListenerContainers() {
            return containers;
        }

        @Override
        public Collection<MessageListenerContainer> getListenerContainers() {
            return containers;
        }

        @Override
        public MessageListenerContainer getListenerContainer(String id) {
            return containers.stream().filter(c -> c.getListenerId().equals(id)).findFirst().orElse(null);
        }

        @Override
        public Collection<MessageListenerContainer> getListenerContainersMatching(Predicate<String> idMatcher) {
            return containers.stream().filter(c -> idMatcher.test(c.getListenerId())).toList();
        }

        @Override
        public Collection<MessageListenerContainer> getListenerContainersMatching(
                BiPredicate<String, MessageListenerContainer> matcher) {
            return containers.stream().filter(c -> matcher.test(c.getListenerId(), c)).toList();
        }

        @Override
        public MessageListenerContainer getUnregisteredListenerContainer(String id) {
            return null;
        }

        @Override
        public Set<String> getListenerContainerIds() {
            return Set.copyOf(containers.stream().map(MessageListenerContainer::getListenerId).toList());
        }
    }
}

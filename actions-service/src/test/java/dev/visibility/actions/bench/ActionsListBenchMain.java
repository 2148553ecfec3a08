package dev.visibility.actions.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import dev.visibility.actions.ActionsServiceApplication;
import dev.visibility.actions.action.Actor;
import dev.visibility.actions.recommendations.RankMaintainer;
import dev.visibility.actions.recommendations.RecommendationCandidate;
import dev.visibility.actions.recommendations.RecommendationIngestion;
import dev.visibility.actions.support.Candidates;
import dev.visibility.actions.write.ActionWriteService;
import dev.visibility.actions.write.NewAction;
import dev.visibility.platform.testing.SharedInfrastructure;
import dev.visibility.platform.testing.TestTokens;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import tools.jackson.databind.ObjectMapper;

/**
 * E3 measured directly against actions-service (no gateway), for when the local suite is not
 * running: the service on the embedded PostgreSQL and Kafka of the tests, 10,000 actions in one
 * project (2,000 ranked recommendations applied by the ingestion code path, 8,000 created by the
 * write path), then p50/p99 per page position over HTTP, one request at a time.
 *
 *   cd actions-service && mvn -B -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt \
 *     && java -cp target/test-classes:target/classes:$(cat target/cp.txt) dev.visibility.actions.bench.ActionsListBenchMain [samples=200]
 */
public final class ActionsListBenchMain {

    private ActionsListBenchMain() {
    }

    public static void main(String[] args) throws Exception {
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Map<String, Object> properties = new java.util.HashMap<>(SharedInfrastructure.springProperties());
        properties.put("server.port", "0");
        properties.put("server.address", "127.0.0.1");
        properties.put("logging.level.root", "WARN");
        // ranks are recomputed once after seeding instead of every interval while 2,000 arrive
        properties.put("suite.actions.rank-interval", "1h");
        SpringApplication app = new SpringApplication(ActionsServiceApplication.class);
        String[] arguments = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        try (ConfigurableApplicationContext context = app.run(arguments)) {
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            UUID project = UUID.randomUUID();
            seed(context, project);
            String list = "http://127.0.0.1:" + port + "/api/v2/projects/" + project + "/actions/list";
            String bearer = TestTokens.bearer(TestTokens.forProject(project.toString(), "actions.read"));
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
            long total = 10_000;
            System.out.printf("%nE3 direct (no gateway), embedded PostgreSQL, %d actions, %d samples per page, one request at a time%n%n",
                    total, samples);
            System.out.printf("%-8s %-8s %-7s %6s %9s %9s %9s%n", "detail", "pageSize", "page", "number", "p50 ms", "p99 ms", "max ms");
            for (String detail : List.of("summary", "context")) {
                for (int pageSize : List.of(25, 100)) {
                    long pages = (total + pageSize - 1) / pageSize;
                    long[] positions = {1, (pages + 1) / 2, pages};
                    String[] names = {"first", "middle", "last"};
                    for (int i = 0; i < 3; i++) {
                        String url = list + "?detailLevel=" + detail + "&pageSize=" + pageSize + "&page=" + positions[i];
                        measure(client, url, bearer, 30);
                        List<Long> nanos = measure(client, url, bearer, samples);
                        Collections.sort(nanos);
                        System.out.printf("%-8s %-8d %-7s %6d %9.2f %9.2f %9.2f%n", detail, pageSize, names[i], positions[i],
                                pct(nanos, 50), pct(nanos, 99), nanos.get(nanos.size() - 1) / 1e6);
                    }
                }
            }
        }
        System.exit(0);
    }

    private static void seed(ConfigurableApplicationContext context, UUID project) {
        RecommendationIngestion ingestion = context.getBean(RecommendationIngestion.class);
        ActionWriteService writes = context.getBean(ActionWriteService.class);
        ObjectMapper mapper = context.getBean(ObjectMapper.class);
        Random random = new Random(7);
        long start = System.nanoTime();
        List<RecommendationCandidate> candidates = new ArrayList<>();
        String[] families = {"prompt_gap", "citation_defence", "content_freshness"};
        for (int i = 0; i < 2000; i++) {
            Map<String, Object> c = Candidates.upsert(project, "bench-" + i, families[i % 3], 5 + random.nextInt(3000),
                    0.05 + random.nextDouble() * 0.9, 0.3 + random.nextDouble() * 0.7, List.of(UUID.randomUUID()), 3);
            candidates.add(mapper.readValue(Candidates.json(c), RecommendationCandidate.class));
        }
        // as the consumer applies them: a poll's records in one transaction
        TransactionalOperator tx = context.getBean(TransactionalOperator.class);
        Flux.fromIterable(candidates).buffer(50).concatMap(poll -> tx.transactional(ingestion.ingestAll(poll)))
                .blockLast(Duration.ofMinutes(10));
        System.out.printf("2,000 recommendations applied in %.1f s%n", (System.nanoTime() - start) / 1e9);
        Flux.range(0, 8000)
                .flatMap(i -> writes.create(project, "acct-bench", Actor.system(), new NewAction("Bench action " + i,
                        "Seeded by ActionsListBenchMain", List.of("content"), i % 2 == 0 ? "high" : "low", null, null)), 8)
                .blockLast(Duration.ofMinutes(10));
        context.getBean(RankMaintainer.class).recompute(project).block(Duration.ofMinutes(1));
        context.getBean(org.springframework.r2dbc.core.DatabaseClient.class).sql("ANALYZE actions").then().block();
        System.out.printf("seeded 10,000 actions in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    private static List<Long> measure(HttpClient client, String url, String bearer, int count) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Authorization", bearer)
                .timeout(Duration.ofSeconds(10)).GET().build();
        List<Long> nanos = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            nanos.add(System.nanoTime() - start);
            if (response.statusCode() != 200) {
                throw new IllegalStateException(url + " answered " + response.statusCode());
            }
        }
        return nanos;
    }

    private static double pct(List<Long> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1)) / 1e6;
    }
}

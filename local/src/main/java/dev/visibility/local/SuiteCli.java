package dev.visibility.local;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The developer commands of {@code ./suite} that talk to a running suite:
 * {@code simulate tracking-run}, {@code simulate recommendation}, {@code simulate agent-run},
 * {@code simulate measurement}, {@code simulate traffic} and {@code webhooks listen}.
 * Plain Java (no Spring), started by {@code ./suite} with {@code java -cp local.jar:<runtime classpath>},
 * which passes where the suite is: {@code -Dsuite.state} (its state directory with
 * {@code credentials.json} and {@code demo.env}), {@code -Dsuite.gateway} (the gateway URL) and
 * {@code -Dsuite.kafka} (the broker's bootstrap address).
 *
 * <p>Exit codes: 0 done, 1 the suite is not reachable or refused the request, 2 bad arguments.
 */
public final class SuiteCli {

    static final String USAGE = """
            usage:
              ./suite simulate tracking-run [--project ID] [--account ID]
                  publish a finished tracking run onto tracking.runs, as an internal producer does;
                  search-tracking.completed and visibility.changed go to the subscribed webhooks
              ./suite simulate recommendation [--project ID] [--account ID]
                  publish a new recommendation onto recommendations, as a recommendation job does;
                  action.created and action.recommendation.created go to the subscribed webhooks
              ./suite simulate agent-run [--project ID]
                  publish a managed-agent run onto agents.runs, as the agent runner does (running,
                  then completed and reviewed); E8 shows it with its draft
              ./suite simulate measurement [--project ID] [--action ID]
                  publish the closed 14-day window of a new intervention onto outcomes.measurements, as a
                  measurement job does; it is an improved result in E2 and counts in E7
              ./suite simulate traffic [--project ID] [--hits N]
                  publish a burst of N (1000) AI-crawler and referral hits of the last hour onto
                  traffic.hits, as a traffic sensor does; E4 counts them within seconds
              ./suite webhooks listen [--events a,b] [--forward-to URL]
                  subscribe a receiver on this machine through the gateway with the demo key, print
                  every delivery (event, delivery id, signature check), forward it to URL if asked,
                  and delete the subscription on Ctrl-C
            --project defaults to the demo project (credentials.json), --account to the demo account;
            --events defaults to all six: %s
            """.formatted(String.join(", ", Events.ALL));

    static final java.time.Duration SETTLE_TIMEOUT = java.time.Duration.ofSeconds(
            Long.getLong("suite.settle.timeout", 150));

    private SuiteCli() {
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != Integer.MIN_VALUE) {
            System.exit(code);
        }
        // webhooks listen: receive until Ctrl-C or SIGTERM; the shutdown hook deletes the subscription
        try {
            new java.util.concurrent.CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs one command; Integer.MIN_VALUE means it keeps running (webhooks listen) until a signal stops it. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            List<String> words = Arrays.asList(args);
            if (words.size() >= 2 && words.get(0).equals("simulate") && words.get(1).equals("tracking-run")) {
                Options options = Options.parse(words.subList(2, words.size()), List.of("--project", "--account"));
                new TrackingRunSimulation(SuiteLocation.fromSystemProperties()).run(options, out);
                return 0;
            }
            if (words.size() >= 2 && words.get(0).equals("simulate") && words.get(1).equals("recommendation")) {
                Options options = Options.parse(words.subList(2, words.size()), List.of("--project", "--account"));
                new RecommendationSimulation(SuiteLocation.fromSystemProperties()).run(options, out);
                return 0;
            }
            if (words.size() >= 2 && words.get(0).equals("simulate") && words.get(1).equals("agent-run")) {
                Options options = Options.parse(words.subList(2, words.size()), List.of("--project"));
                new AgentRunSimulation(SuiteLocation.fromSystemProperties()).run(options, out);
                return 0;
            }
            if (words.size() >= 2 && words.get(0).equals("simulate") && words.get(1).equals("measurement")) {
                Options options = Options.parse(words.subList(2, words.size()), List.of("--project", "--action"));
                new MeasurementSimulation(SuiteLocation.fromSystemProperties()).run(options, out);
                return 0;
            }
            if (words.size() >= 2 && words.get(0).equals("simulate") && words.get(1).equals("traffic")) {
                Options options = Options.parse(words.subList(2, words.size()), List.of("--project", "--hits"));
                new TrafficSimulation(SuiteLocation.fromSystemProperties()).run(options, out);
                return 0;
            }
            if (words.size() >= 2 && words.get(0).equals("webhooks") && words.get(1).equals("listen")) {
                Options options = Options.parse(words.subList(2, words.size()), List.of("--events", "--forward-to"));
                new WebhookListen(SuiteLocation.fromSystemProperties(), out).start(options);
                return Integer.MIN_VALUE;
            }
            if (words.size() == 1 && words.get(0).equals("settle")) { // internal: ./suite up runs it
                Long since = Long.getLong("suite.settle.since");
                String goFile = System.getProperty("suite.settle.go");
                Long upPid = Long.getLong("suite.settle.up-pid");
                Settle.Go go = goFile == null || upPid == null ? null : new Settle.Go(java.nio.file.Path.of(goFile), upPid);
                return new Settle(SuiteLocation.fromSystemProperties())
                        .run(SETTLE_TIMEOUT, since == null ? null : java.time.Instant.ofEpochMilli(since), go, out);
            }
            if (words.size() == 3 && words.get(0).equals("training-database")) { // internal: ./suite cds-train
                return new TrainingDatabase(System.getenv()).run(words.get(1), words.get(2));
            }
            if (words.size() >= 2 && words.get(0).equals("extract-jars")) { // internal: ./suite up extracts the services' jars
                return new ExtractJars(java.nio.file.Path.of(words.get(1))).run(words.subList(2, words.size()), err);
            }
            if (words.size() == 1 && (words.get(0).equals("help") || words.get(0).equals("--help"))) {
                out.print(USAGE);
                return 0;
            }
            throw new CliException(2, words.isEmpty() ? "a command is needed" : "unknown command: " + String.join(" ", words));
        } catch (CliException e) {
            err.println("error: " + e.getMessage());
            if (e.exitCode() == 2) {
                err.print(USAGE);
            }
            return e.exitCode();
        }
    }

    /** {@code --name value} or {@code --name=value} options, each at most once. */
    record Options(List<String[]> pairs) {

        static Options parse(List<String> words, List<String> known) {
            List<String[]> pairs = new ArrayList<>();
            for (int i = 0; i < words.size(); i++) {
                String word = words.get(i);
                String name = word;
                String value;
                int eq = word.indexOf('=');
                if (word.startsWith("--") && eq > 0) {
                    name = word.substring(0, eq);
                    value = word.substring(eq + 1);
                } else if (i + 1 < words.size()) {
                    value = words.get(++i);
                } else {
                    value = null;
                }
                if (!known.contains(name)) {
                    throw new CliException(2, "unknown option: " + word);
                }
                if (value == null || value.isBlank()) {
                    throw new CliException(2, name + " needs a value");
                }
                for (String[] pair : pairs) {
                    if (pair[0].equals(name)) {
                        throw new CliException(2, name + " is given twice");
                    }
                }
                pairs.add(new String[] {name, value});
            }
            return new Options(pairs);
        }

        String get(String name) {
            for (String[] pair : pairs) {
                if (pair[0].equals(name)) {
                    return pair[1];
                }
            }
            return null;
        }
    }
}

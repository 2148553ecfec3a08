package dev.visibility.visibility.demo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import dev.visibility.platform.events.AgentPicksRunRecorded;
import dev.visibility.platform.events.AgentPicksRunRecorded.Classification;
import dev.visibility.platform.events.AgentPicksRunRecorded.Context;
import dev.visibility.platform.events.AgentPicksRunRecorded.Environment;
import dev.visibility.platform.events.AgentPicksRunRecorded.Evidence;
import dev.visibility.platform.events.TrackingRunCompleted;
import dev.visibility.platform.events.TrackingRunCompleted.Ad;
import dev.visibility.platform.events.TrackingRunCompleted.BrandMention;
import dev.visibility.platform.events.TrackingRunCompleted.Citation;
import dev.visibility.platform.events.TrackingRunCompleted.Sample;

/**
 * The local demo, as internal producers would publish it: daily tracking runs for both demo
 * projects (answers with citations, brand mentions and ads; a failed run now and then; answers
 * older than the retention, and a few recent ones with a short retention, expired), and for the
 * demo project agent-picks tests with runs in all five states, one of them with 3,000 evidence
 * items. Every id derives from the project id and a name, so publishing the demo again changes
 * nothing (runs are idempotent by id) and the example paths are known before anything is consumed.
 */
public final class DemoData {

    static final List<String> PLATFORMS = List.of("chatgpt", "perplexity", "gemini");
    static final List<String> PROMPTS = List.of("best payment API for a SaaS startup", "how to add subscriptions to a Next.js app",
            "stripe alternatives with lower fees", "which analytics tool respects privacy",
            "transactional email service for developers", "how do I send receipts after checkout",
            "top tools to monitor web app errors", "what is the easiest auth provider for React");
    static final int BIG_RUN_EVIDENCE = 3_000;
    static final int EVIDENCE_BATCH = 500;

    private final UUID projectId;
    private final String accountId;
    private final LocalDate today;
    private final Duration retention;

    public DemoData(UUID projectId, String accountId, LocalDate today, Duration retention) {
        this.projectId = projectId;
        this.accountId = accountId;
        this.today = today;
        this.retention = retention;
    }

    public UUID id(String name) {
        return UUID.nameUUIDFromBytes((projectId + ":" + name).getBytes(StandardCharsets.UTF_8));
    }

    /** Daily tracking runs for {@code days} days ending yesterday, oldest first. */
    public List<TrackingRunCompleted> trackingRuns(int days, boolean primary) {
        Random random = new Random(projectId.getLeastSignificantBits());
        List<TrackingRunCompleted> runs = new ArrayList<>();
        for (int back = days; back >= 1; back--) {
            LocalDate day = today.minusDays(back);
            Instant completedAt = day.atTime(primary ? 6 : 7, 30).toInstant(ZoneOffset.UTC);
            boolean failed = back % 29 == 0;
            // visibility climbs over the months for the demo project, stays flat for the other one
            double progress = (days - back) / (double) Math.max(1, days);
            double chance = primary ? 0.25 + 0.45 * progress : 0.3;
            List<Sample> samples = new ArrayList<>();
            if (!failed) {
                for (int p = 0; p < PROMPTS.size(); p++) {
                    for (int f = 0; f < PLATFORMS.size(); f++) {
                        samples.add(sample(day, back, p, PLATFORMS.get(f), completedAt.minusSeconds(60L * (p * 3 + f + 1)),
                                random.nextDouble() < chance, random, primary));
                    }
                }
            }
            runs.add(new TrackingRunCompleted(id("tracking-event:" + day), id("tracking-run:" + day), projectId, accountId,
                    failed ? TrackingRunCompleted.FAILED : TrackingRunCompleted.COMPLETED, day,
                    completedAt.minus(Duration.ofMinutes(40)), completedAt, samples));
        }
        return runs;
    }

    private Sample sample(LocalDate day, int back, int prompt, String platform, Instant completedAt, boolean visible,
            Random random, boolean primary) {
        String brand = primary ? "Acme Pay" : "Globex Mail";
        String domain = primary ? "acmepay.example" : "globexmail.example";
        List<Citation> citations = new ArrayList<>();
        List<BrandMention> mentions = new ArrayList<>();
        citations.add(new Citation("https://docs.rival.example/guide", "docs.rival.example", false));
        mentions.add(new BrandMention("Rival", false, 1 + random.nextInt(3)));
        if (visible) {
            mentions.add(new BrandMention(brand, true, 1 + random.nextInt(3)));
            if (random.nextBoolean()) {
                citations.add(new Citation("https://" + domain + "/docs/" + (prompt + 1), domain, true));
            }
        }
        boolean measured = !platform.equals("gemini");
        List<Ad> ads = new ArrayList<>();
        double adChance = platform.equals("perplexity") ? 0.35 : 0.1;
        // the first prompt on perplexity always shows an ad, so that the E12 example has one
        boolean alwaysAd = prompt == 0 && platform.equals("perplexity");
        if (measured && (random.nextDouble() < adChance || alwaysAd)) {
            ads.add(new Ad("Rival — payments in minutes", "Start accepting payments today", "rival.example", "Rival Inc.",
                    "No setup fees for the first year.", "https://rival.example/signup?ref=ai"));
            if (random.nextDouble() < 0.3) {
                ads.add(new Ad("Initech Billing", "Billing for growing teams", "initech.example", "Initech",
                        "Try it free for 30 days.", "https://initech.example/billing"));
            }
        }
        String answer = "For \"" + PROMPTS.get(prompt) + "\", " + platform + " suggests "
                + (visible ? brand + " (" + domain + ") and Rival" : "Rival and a few others") + ". Captured on " + day + ".";
        // a few recent gemini answers were kept only for a day: they show E12 after expiry
        Instant retainUntil = platform.equals("gemini") && back <= 3 ? completedAt.plus(Duration.ofDays(1))
                : completedAt.plus(retention);
        return new Sample(id("execution:" + day + ":" + prompt + ":" + platform), id("prompt:" + prompt), PROMPTS.get(prompt),
                platform, answer, completedAt, retainUntil, citations, mentions, measured, ads);
    }

    /** The executions E12 examples read: a retained one with ads (yesterday) and an expired one (two days ago, gemini). */
    public UUID retainedExecution() {
        return id("execution:" + today.minusDays(1) + ":0:perplexity");
    }

    public UUID expiredExecution() {
        return id("execution:" + today.minusDays(2) + ":1:gemini");
    }

    /** One agent-picks run to publish: its test and the records of its life, in order. */
    public record DemoRun(String name, UUID testId, UUID runId, List<AgentPicksRunRecorded> records) {
    }

    public UUID paymentsTest() {
        return id("test:payments");
    }

    public UUID emailTest() {
        return id("test:email");
    }

    /** The run with thousands of evidence items (the E1 example). */
    public UUID bigRun() {
        return id("run:email-completed-large");
    }

    /** Agent-picks runs in every state: name → records. */
    public List<DemoRun> agentPicksRuns() {
        Instant base = today.minusDays(2).atTime(9, 0).toInstant(ZoneOffset.UTC);
        List<DemoRun> runs = new ArrayList<>();
        runs.add(run("payments-completed", paymentsTest(), "payments", "completed", "completed", 0, base, 60, true,
                pick("stripe", "Stripe", "stripe.com", List.of("stripe@17.4.0", "@stripe/stripe-js", "stripe-mock-internal"),
                        List.of("paddle", "lemonsqueezy", "acme-internal-billing"))));
        runs.add(run("payments-failed", paymentsTest(), "payments", "completed", "failed", 1, base.plusSeconds(900), 25, false,
                null));
        runs.add(run("payments-cancelled", paymentsTest(), "payments", "completed", "cancelled", 2, base.plusSeconds(1800), 0,
                false, null));
        runs.add(run("email-completed-large", emailTest(), "email", "running", "completed", 0, base.plusSeconds(3600),
                BIG_RUN_EVIDENCE, true, pick("resend", "Resend", "resend.com", List.of("resend", "react-email-internal"),
                        List.of("postmark", "@sendgrid/mail"))));
        runs.add(run("email-running", emailTest(), "email", "running", "running", 1, base.plusSeconds(7200), 12, false, null));
        runs.add(run("email-running-no-events", emailTest(), "email", "running", "running", 2, base.plusSeconds(7500), 0,
                false, null));
        runs.add(run("email-queued", emailTest(), "email", "running", "queued", 3, base.plusSeconds(7800), 0, false, null));
        return runs;
    }

    private static Classification pick(String key, String name, String domain, List<String> packages, List<String> others) {
        return new Classification("picked", key, name, domain, 0.87, "clf-2026.11", "classifier", packages, others, false);
    }

    private DemoRun run(String name, UUID testId, String kind, String testStatus, String status, int repetition,
            Instant created, int evidenceCount, boolean trailComplete, Classification classification) {
        UUID runId = id("run:" + name);
        Random random = new Random(runId.getMostSignificantBits());
        boolean started = !status.equals("queued");
        boolean finished = List.of("completed", "failed", "cancelled").contains(status);
        Instant startedAt = started ? created.plusSeconds(4) : null;
        Instant completedAt = finished ? created.plusSeconds(180 + evidenceCount / 10) : null;
        AgentPicksRunRecorded.Run state = new AgentPicksRunRecorded.Run("claude-code", "claude-sonnet-4-5", repetition,
                status, created, startedAt, completedAt, status.equals("cancelled"),
                completedAt == null ? null : Duration.between(startedAt, completedAt).toMillis(), status.equals("failed"),
                status.equals("failed") ? "npm ERR! code E401 while installing a private package" : null);
        Context context = new Context(new Environment("env-nextjs-saas", "nextjs-saas", "Next.js SaaS starter", "nextjs"),
                "Add " + kind + " to this app so that customers can " + (kind.equals("payments") ? "pay" : "get receipts"),
                "add_" + kind, "Implement the " + kind + " feature end to end, with tests", "clf-2026.11", 900.0);
        AgentPicksRunRecorded.Test test = new AgentPicksRunRecorded.Test(kind, testStatus);

        List<Evidence> evidence = new ArrayList<>();
        for (int i = 0; i < evidenceCount; i++) {
            evidence.add(evidence(runId, i, created.plusMillis(4_000L + 250L * i), random));
        }
        List<AgentPicksRunRecorded> records = new ArrayList<>();
        long revision = 1;
        // first the run as queued (without evidence), then the evidence in batches, then the final state
        records.add(new AgentPicksRunRecorded(id("event:" + name + ":" + revision), runId, testId, projectId, accountId,
                revision, created, test, new AgentPicksRunRecorded.Run(state.agent(), state.model(), repetition, "queued",
                        created, null, null, false, null, false, null), context, null, List.of(), false));
        for (int from = 0; from < evidence.size(); from += EVIDENCE_BATCH) {
            revision++;
            List<Evidence> batch = evidence.subList(from, Math.min(evidence.size(), from + EVIDENCE_BATCH));
            records.add(new AgentPicksRunRecorded(id("event:" + name + ":" + revision), runId, testId, projectId, accountId,
                    revision, created.plusSeconds(revision), test, new AgentPicksRunRecorded.Run(state.agent(), state.model(),
                            repetition, "running", created, startedAt, null, false, null, false, null),
                    context, null, List.copyOf(batch), false));
        }
        if (!status.equals("queued")) {
            revision++;
            records.add(new AgentPicksRunRecorded(id("event:" + name + ":" + revision), runId, testId, projectId, accountId,
                    revision, completedAt != null ? completedAt : created.plusSeconds(revision), test, state, context,
                    classification, List.of(), trailComplete));
        }
        return new DemoRun(name, testId, runId, records);
    }

    private Evidence evidence(UUID runId, int i, Instant at, Random random) {
        UUID id = UUID.nameUUIDFromBytes((runId + ":evidence:" + i).getBytes(StandardCharsets.UTF_8));
        double observed = 4_000.0 + 250.0 * i;
        return switch (i % 6) {
            case 0 -> new Evidence(id, i, "search", null, null, at, observed,
                    List.of("best " + (random.nextBoolean() ? "payments" : "email") + " api for next.js " + i), null, List.of(),
                    "search_engine", null, null, null, null, null, null);
            case 1 -> new Evidence(id, i, "fetch", "https://docs.stripe.com/payments/checkout?step=" + i + "#setup",
                    200, at, observed, List.of(), null, List.of(), "web", "GET", null, null, null, null, null);
            case 2 -> new Evidence(id, i, "read", null, null, at, observed, List.of(), "/workspace/app/src/lib/billing-" + i + ".ts",
                    List.of(), "filesystem", null, null, null, null, null, null);
            case 3 -> new Evidence(id, i, "install", "https://registry.npmjs.org/stripe", 200, at, observed, List.of(), null,
                    List.of("stripe@17.4.0", i % 12 == 3 ? "internal-payments-sdk@0.0.1" : "@stripe/stripe-js"), "registry",
                    "GET", 0, false, "npm install stripe @stripe/stripe-js", null, null);
            case 4 -> new Evidence(id, i, "command", null, null, at, observed, List.of(), null, List.of(), "shell", null,
                    i % 24 == 4 ? 1 : 0, i % 24 == 4, "npm test -- --runInBand", null,
                    i % 24 == 4 ? "1 failing test in checkout.spec.ts" : null);
            default -> new Evidence(id, i, "write", null, null, at, observed, List.of(), "/workspace/app/src/app/checkout/page-" + i + ".tsx",
                    List.of(), "filesystem", null, null, null, null, "export default function Checkout() {}", null);
        };
    }

    /** Ready-to-paste request paths with real demo ids. */
    public Map<String, String> examples() {
        String base = "/api/v2/projects/" + projectId;
        Map<String, String> examples = new LinkedHashMap<>();
        examples.put("E1", base + "/agent-picks/tests/" + emailTest() + "/runs/" + bigRun() + "?limit=100");
        examples.put("E1_completed_with_pick", base + "/agent-picks/tests/" + paymentsTest() + "/runs/" + id("run:payments-completed"));
        examples.put("E1_running_without_events", base + "/agent-picks/tests/" + emailTest() + "/runs/" + id("run:email-running-no-events"));
        examples.put("E12", base + "/visibility/responses/" + retainedExecution());
        examples.put("E12_expired", base + "/visibility/responses/" + expiredExecution());
        examples.put("visibilitySummary", base + "/visibility/summary?days=90");
        examples.put("visibilityResponses", base + "/visibility/responses?limit=20");
        return examples;
    }
}

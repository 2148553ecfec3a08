package dev.visibility.actions.demo;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.visibility.actions.action.ActionRepository;
import dev.visibility.actions.action.ActionStatus;
import dev.visibility.actions.action.Actor;
import dev.visibility.platform.events.StringProducer;
import dev.visibility.actions.write.ActionPatch;
import dev.visibility.actions.write.ActionWriteService;
import dev.visibility.actions.write.NewAction;
import dev.visibility.platform.events.Topics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Profile;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.ObjectMapper;

/**
 * Local mode only: gives the suite's demo project a few hundred actions across all statuses, the
 * way production gets them — recommendation records on the {@code recommendations} topic, then
 * the team's changes through {@link ActionWriteService} (the write API's code path). Runs once,
 * in the background, when the project has no actions yet; skipped while
 * {@code suite.demo.project-id} or {@code suite.demo.account-id} is unset.
 */
@Component
@Profile("local")
class LocalDemoData {

    private static final Logger log = LoggerFactory.getLogger(LocalDemoData.class);
    private static final Duration INGEST_WAIT = Duration.ofMinutes(3);
    private static final Duration TEAM_WAIT = Duration.ofMinutes(3);
    private static final String[] FAMILIES = {"prompt_gap", "citation_defence", "content_freshness", "technical_health"};
    private static final String[] CHANNELS = {"content", "technical", "pr", "social", "docs"};
    private static final String[] PRIORITIES = {"high", "medium", "low"};
    private static final String[] BUCKETS = {"do_now", "next", "backlog"};
    private static final String[] PLATFORMS = {"chatgpt", "perplexity", "gemini", "claude"};

    private final String projectId;
    private final String accountId;
    private final int count;
    private final boolean enabled;
    private final ActionRepository actions;
    private final ActionWriteService writes;
    private final StringProducer publisher;
    private final ObjectMapper mapper;

    LocalDemoData(@Value("${suite.demo.project-id:}") String projectId, @Value("${suite.demo.account-id:}") String accountId,
            @Value("${suite.demo.recommendations:300}") int count, @Value("${suite.demo.enabled:true}") boolean enabled,
            ActionRepository actions, ActionWriteService writes, StringProducer publisher, ObjectMapper mapper) {
        this.projectId = projectId;
        this.accountId = accountId;
        this.count = count;
        this.enabled = enabled;
        this.actions = actions;
        this.writes = writes;
        this.publisher = publisher;
        this.mapper = mapper;
    }

    @EventListener(ApplicationReadyEvent.class)
    void onReady() {
        if (!enabled || projectId.isBlank() || accountId.isBlank()) {
            log.info("Demo actions skipped: suite.demo.project-id and suite.demo.account-id are not both set");
            return;
        }
        Schedulers.boundedElastic().schedule(() -> {
            try {
                seed(UUID.fromString(projectId));
            } catch (RuntimeException e) {
                log.warn("Demo actions could not be created: {}", e.toString());
            }
        });
    }

    void seed(UUID project) {
        long existing = actions.count(project, null).block(Duration.ofSeconds(10));
        if (existing > 0) {
            log.info("Demo project {} already has {} actions", project, existing);
            return;
        }
        Random random = new Random(project.getMostSignificantBits());
        List<UUID> prompts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            prompts.add(UUID.nameUUIDFromBytes((project + "/prompt/" + i).getBytes()));
        }
        long start = System.nanoTime();
        List<String> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(mapper.writeValueAsString(upsert(project, "demo-" + i, i, random, prompts, null)));
        }
        publish(project, records);
        awaitCount(project, count);
        long ingested = System.nanoTime();

        // the team's work, through the write API's code path, one change after the other (a first
        // up's events in the same order every time; four actions at a time measured no quicker)
        Actor team = new Actor(Actor.USER, null, "demo-seed", null);
        Map<String, UUID> ids = idsByKey(project);
        List<Mono<Void>> work = new ArrayList<>();
        List<String> withdrawals = new ArrayList<>();
        List<UUID> shipped = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            UUID id = ids.get("demo-" + i);
            int slot = i % 10;
            if (slot == 1 || slot == 2) {
                work.add(i % 20 == 1 ? patches(project, id, team, ActionStatus.ACCEPTED).then(change(project, id, team, new ActionPatch(null, null, null, null, Boolean.TRUE)))
                        : patches(project, id, team, ActionStatus.ACCEPTED));
            } else if (slot == 3) {
                work.add(patches(project, id, team, ActionStatus.ACCEPTED, ActionStatus.LIVE));
                shipped.add(id);
            } else if (slot == 4 && i % 20 == 4) {
                work.add(patches(project, id, team, ActionStatus.ARCHIVED));
            } else if (slot == 5 && i % 30 == 5) {
                work.add(patches(project, id, team, ActionStatus.ACCEPTED, ActionStatus.LIVE, ActionStatus.ARCHIVED));
            } else if (i % 50 == 6) {
                // acted on, then withdrawn by the producer (after this work): archived as withdrawn
                work.add(change(project, id, team, new ActionPatch(null,
                        new ActionPatch.Set<>(UUID.nameUUIDFromBytes((project + "/member").getBytes())), null, null, null)));
                withdrawals.add(withdraw(project, "demo-" + i));
            } else if (i % 50 == 7) {
                // withdrawn before anyone acted: removed, no events
                withdrawals.add(withdraw(project, "demo-" + i));
            }
        }
        for (int i = 0; i < 12; i++) {
            NewAction task = new NewAction("Team task " + (i + 1), "Created by the team in the actions workspace",
                    List.of(CHANNELS[i % CHANNELS.length]), PRIORITIES[i % 3], i % 2 == 0 ? "Docs hub" : null, null);
            boolean accept = i % 3 == 1;
            work.add(Mono.defer(() -> writes.create(project, accountId, team, task))
                    .flatMap(created -> accept ? patches(project, created.id, team, ActionStatus.ACCEPTED) : Mono.<Void>empty()));
        }
        Flux.concat(work).then().block(TEAM_WAIT);
        List<String> followUps = new ArrayList<>();
        for (int i = 0; i < Math.min(5, shipped.size()); i++) {
            UUID followed = shipped.get(i);
            followUps.add(mapper.writeValueAsString(upsert(project, "demo-follow-" + i, i, random, prompts, followed)));
        }
        withdrawals.addAll(followUps);
        publish(project, withdrawals);
        log.info("Demo project {}: {} recommendations published and worked on (ingested after {} ms, the team's work {} ms)",
                project, count, (ingested - start) / 1_000_000, (System.nanoTime() - ingested) / 1_000_000);
    }

    /** The team's status changes of one action, one after the other. */
    private Mono<Void> patches(UUID project, UUID id, Actor team, ActionStatus... statuses) {
        Mono<Void> chain = Mono.empty();
        for (ActionStatus status : statuses) {
            chain = chain.then(change(project, id, team, new ActionPatch(status, null, null, null, null)));
        }
        return chain;
    }

    /** One change by the team, through the write path, made when subscribed to. */
    private Mono<Void> change(UUID project, UUID id, Actor team, ActionPatch patch) {
        return Mono.defer(() -> writes.update(project, id, accountId, team, patch)).then();
    }

    private String withdraw(UUID project, String key) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("eventId", UUID.randomUUID().toString());
        c.put("projectId", project.toString());
        c.put("accountId", accountId);
        c.put("recommendationId", key);
        c.put("kind", "withdraw");
        return mapper.writeValueAsString(c);
    }

    private void publish(UUID project, List<String> records) {
        try {
            List<java.util.concurrent.CompletableFuture<?>> acks = new ArrayList<>();
            for (String record : records) {
                acks.add(publisher.template().send(Topics.RECOMMENDATIONS, project.toString(), record));
            }
            for (java.util.concurrent.CompletableFuture<?> ack : acks) {
                ack.get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("Could not publish demo recommendations", e);
        }
    }

    private void awaitCount(UUID project, long expected) {
        long deadline = System.nanoTime() + INGEST_WAIT.toNanos();
        while (actions.count(project, null).block(Duration.ofSeconds(10)) < expected) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("demo recommendations were not ingested in time");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** The ids of the project's actions by their recommendation's key. */
    private Map<String, UUID> idsByKey(UUID project) {
        return actions.db().sql("SELECT fingerprint_key, id FROM actions WHERE project_id = :p AND fingerprint_key IS NOT NULL")
                .bind("p", project).map(row -> Map.entry(row.get(0, String.class), row.get(1, UUID.class)))
                .all().collectMap(Map.Entry::getKey, Map.Entry::getValue).block(Duration.ofSeconds(10));
    }

    private Map<String, Object> upsert(UUID project, String key, int i, Random random, List<UUID> prompts, UUID followed) {
        String family = FAMILIES[i % FAMILIES.length];
        double reach = i % 10 == 9 ? 2 + random.nextInt(7) : 20 + random.nextInt(4000);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("eventId", UUID.randomUUID().toString());
        c.put("projectId", project.toString());
        c.put("accountId", accountId);
        c.put("recommendationId", key);
        c.put("kind", "upsert");
        c.put("occurredAt", Instant.now().toString());
        String topic = "topic " + (i % 37 + 1);
        c.put("title", switch (family) {
            case "prompt_gap" -> "Answer the prompts about " + topic;
            case "citation_defence" -> "Defend citations on " + topic;
            case "content_freshness" -> "Refresh the page on " + topic;
            default -> "Fix crawlability of " + topic;
        });
        c.put("description", "AI answers about " + topic + " cite competitors more often than this project.");
        c.put("channels", List.of(CHANNELS[i % CHANNELS.length], CHANNELS[(i + 2) % CHANNELS.length]));
        c.put("priority", PRIORITIES[random.nextInt(3)]);
        c.put("bucket", BUCKETS[random.nextInt(3)]);
        int prior = 5 + random.nextInt(30);
        int current = random.nextInt(prior);
        c.put("opportunity", Map.of(
                "family", family,
                "estimated", random.nextBoolean(),
                "components", Map.of(
                        "reach", Map.of("value", reach, "unit", "searches_per_month", "estimated", random.nextBoolean()),
                        "gap", Map.of("value", round(0.05 + random.nextDouble() * 0.9), "unit", "citation_share",
                                "normalization", "1 - project citations / all citations in the matched cohort"),
                        "confidence", Map.of("value", round(0.3 + random.nextDouble() * 0.7), "unit", "ratio",
                                "volumeConfidencePenalty", round(random.nextDouble() * 0.2),
                                "saturation", Map.of("signalDays", 7 + random.nextInt(50), "eventEvidence", random.nextInt(40),
                                        "runPlatformObservations", 10 + random.nextInt(200)))),
                "measuredFacts", List.of("citation_share_dropped", "competitor_gained"),
                "percentileScope", "signal_family",
                "measurements", Map.of("asOfDate", LocalDate.of(2026, 11, 20).toString(),
                        "compositionChange", Map.of("onlyPrior", Map.of("cellCount", random.nextInt(4), "citationCount", random.nextInt(9)),
                                "onlyCurrent", Map.of("cellCount", random.nextInt(3), "citationCount", random.nextInt(5))),
                        "currentCitationCount", current, "currentExecutions", 100 + random.nextInt(50),
                        "currentProbeDays", 14, "matchedCohortCoverage", round(0.5 + random.nextDouble() / 2),
                        "priorCitationCount", prior, "priorExecutions", 100 + random.nextInt(50), "priorProbeDays", 14)));
        c.put("effortScore", round(1 + random.nextDouble() * 4));
        c.put("portfolioCategory", random.nextBoolean() ? "quick_win" : "strategic");
        c.put("steeredFromPageUrl", "https://demo.example/" + topic.replace(' ', '-'));
        c.put("followUpOf", followed == null ? null : Map.of("actionId", followed.toString(),
                "title", "Shipped demo action", "shippedAt", Instant.now().toString()));
        c.put("expectedImpact", "About " + (3 + random.nextInt(20)) + " more citations a month");
        c.put("primaryCtaKind", "generate_brief");
        c.put("target", Map.of("label", "Page on " + topic, "type", "page",
                "payload", Map.of("url", "https://demo.example/" + topic.replace(' ', '-'))));
        c.put("whatChanged", "Competitors published fresher pages on " + topic + ".");
        c.put("whyNow", "Citations on " + topic + " fell from " + prior + " to " + current + " over two weeks.");
        c.put("isCommandCenter", i % 25 == 0);
        c.put("highStakes", i % 40 == 0);
        c.put("ownerName", i % 3 == 0 ? "Content team" : null);
        List<Map<String, Object>> cells = new ArrayList<>();
        int cellCount = 1 + random.nextInt(4);
        for (int k = 0; k < cellCount; k++) {
            cells.add(Map.of("promptId", prompts.get(random.nextInt(prompts.size())).toString(),
                    "platform", PLATFORMS[random.nextInt(PLATFORMS.length)], "priorCitationCount", prior / cellCount,
                    "currentCitationCount", current / cellCount, "promptText", "which tool is best for " + topic + " (" + k + ")",
                    "priorExecutions", 20, "currentExecutions", 20));
        }
        c.put("evidence", Map.of(
                "topEvidence", List.of(Map.of(
                        "id", UUID.nameUUIDFromBytes((project + key + "/evidence").getBytes()).toString(),
                        "title", "Citations lost on " + topic, "summary", "Cited in " + current + " answers, down from " + prior,
                        "type", "citation_loss",
                        "audit", Map.of("assessedAt", "2026-11-19T10:00:00Z",
                                "checks", List.of(Map.of("label", "Subject clarity", "detail", "The first heading names no product",
                                        "score", round(random.nextDouble()), "failing", random.nextBoolean())),
                                "sectionAssessment", Map.of("version", "3", "contentHash", "c" + i, "inputHash", "i" + i,
                                        "assessedAt", "2026-11-19T10:00:00Z", "status", "complete", "reason", "no_substantive_sections",
                                        "selection", Map.of("scannedChars", 1200, "sourceChars", 5400, "candidateCount", 3,
                                                "sampled", false, "truncated", false),
                                        "sections", List.of(Map.of("locator", "#h1", "heading", topic, "start", 0, "end", 400,
                                                "source", "html", "truncated", false)),
                                        "findings", List.of(Map.of("locator", "#h1", "kind", "subject_clarity", "excerpt", topic,
                                                "explanation", "No product named", "remedy", "Name the product in the heading"))),
                                "pageUrl", "https://demo.example/" + topic.replace(' ', '-'), "citationScope", "page"),
                        "citationLoss", Map.of("priorCitationCount", prior, "currentCitationCount", current, "cellCount", cellCount,
                                "cells", cells, "pageLabel", "Page on " + topic, "priorExecutions", 20 * cellCount,
                                "currentExecutions", 20 * cellCount),
                        "googleEligibility", Map.of("coverageState", "indexed",
                                "dimensions", Map.of("canonical", "pass", "crawlable", "pass", "indexed", i % 7 == 0 ? "fail" : "pass",
                                        "structuredData", i % 3 == 0 ? "fail" : "pass"),
                                "observedAt", "2026-11-18T08:00:00Z"))),
                "winningPages", List.of(Map.of("rank", 1, "url", "https://rival.example/" + topic.replace(' ', '-'),
                        "title", "Rival on " + topic, "domain", "rival.example", "assetType", "competitor",
                        "citationCount", 5 + random.nextInt(20), "citedAnswers", 3 + random.nextInt(10),
                        "promptCount", 1 + random.nextInt(5), "averagePosition", round(1 + random.nextDouble() * 3)))));
        c.put("brief", i % 5 == 0 ? Map.of("summary", "Rewrite the page on " + topic + " around the questions AI answers get",
                "steps", List.of(Map.of("heading", "Name the product", "body", "Put the product name in the first heading."),
                        Map.of("heading", "Answer the prompts", "body", "Add a section per prompt cluster.")),
                "generatedAt", "2026-11-20T09:00:00Z", "updatedAt", "2026-11-20T09:00:00Z") : null);
        return c;
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}

package dev.visibility.agents.demo;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.visibility.platform.events.AgentRunRecorded;
import dev.visibility.platform.events.AgentRunRecorded.Definition;
import dev.visibility.platform.events.AgentRunRecorded.Evidence;
import dev.visibility.platform.events.AgentRunRecorded.Unavailable;
import dev.visibility.platform.events.AssistantThreadRecorded;
import dev.visibility.platform.events.AssistantThreadRecorded.Handoff;

/**
 * The local demo of managed agents, as the agent runner and the assistant would publish it. Ids
 * derive from the project id, so the example requests stay valid across starts:
 * <ul>
 * <li>runs: one completed whose review completed (E8 shows its draft), one completed awaiting
 * review (draft withheld), one running;</li>
 * <li>threads of the demo member (the creator of the demo keys): one with a pending handoff, one
 * pending past its expiry, one expired and one accepted (E9 lists only the first), plus credits
 * used; one to delete (E10);</li>
 * <li>a thread of another member of the account (E9 and E10 answer 403 not_thread_owner).</li>
 * </ul>
 */
public final class DemoData {

    private final UUID projectId;
    private final UUID memberId;
    private final Instant now;

    public DemoData(UUID projectId, UUID memberId, Instant now) {
        this.projectId = projectId;
        this.memberId = memberId;
        this.now = now.truncatedTo(ChronoUnit.SECONDS);
    }

    UUID id(String name) {
        return UUID.nameUUIDFromBytes((projectId + ":agents:" + name).getBytes(StandardCharsets.UTF_8));
    }

    public UUID reviewedRun() {
        return id("run:reviewed");
    }

    public UUID awaitingReviewRun() {
        return id("run:awaiting-review");
    }

    public UUID runningRun() {
        return id("run:running");
    }

    public UUID handoffThread() {
        return id("thread:handoffs");
    }

    public UUID deletableThread() {
        return id("thread:deletable");
    }

    public UUID othersThread() {
        return id("thread:another-member");
    }

    /** A member of the account other than the demo member; owns {@link #othersThread()}. */
    public UUID otherMember() {
        return id("member:colleague");
    }

    /** Every state change of the three runs, in order (a run's records by rising revision). */
    public List<AgentRunRecorded> runs() {
        List<AgentRunRecorded> out = new ArrayList<>();
        Instant reviewedAt = now.minus(Duration.ofDays(2));
        out.add(run(reviewedRun(), 0, "queued", "not_started", reviewedAt, null, null, "0", null));
        out.add(run(reviewedRun(), 1, "running", "not_started", reviewedAt, reviewedAt.plusSeconds(4), null, "3.5", null));
        out.add(run(reviewedRun(), 2, "completed", "awaiting_review", reviewedAt, reviewedAt.plusSeconds(4),
                reviewedAt.plusSeconds(412), "18.75", draft("Pricing page refresh")));
        out.add(run(reviewedRun(), 3, "completed", "completed", reviewedAt, reviewedAt.plusSeconds(4),
                reviewedAt.plusSeconds(412), "18.75", draft("Pricing page refresh")));
        Instant awaitingAt = now.minus(Duration.ofHours(5));
        out.add(run(awaitingReviewRun(), 0, "running", "not_started", awaitingAt, awaitingAt.plusSeconds(2), null, "1", null));
        out.add(run(awaitingReviewRun(), 1, "completed", "awaiting_review", awaitingAt, awaitingAt.plusSeconds(2),
                awaitingAt.plusSeconds(388), "16.25", draft("Checkout FAQ answers")));
        Instant runningAt = now.minus(Duration.ofMinutes(20));
        out.add(run(runningRun(), 0, "queued", "not_started", runningAt, null, null, "0", null));
        out.add(run(runningRun(), 1, "running", "not_started", runningAt, runningAt.plusSeconds(3), null, "4.5", null));
        return out;
    }

    private AgentRunRecorded run(UUID runId, long revision, String status, String review, Instant created, Instant started,
            Instant completed, String credits, Map<String, Object> draft) {
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("inputTokens", 12_000 + 1_500 * revision);
        usage.put("outputTokens", 2_000 + 900 * revision);
        usage.put("toolCalls", 3 * revision);
        return new AgentRunRecorded(UUID.nameUUIDFromBytes((runId + ":" + revision).getBytes(StandardCharsets.UTF_8)), projectId,
                runId, revision, status, review, "content_refresh", "weekly:" + created.toString().substring(0, 10),
                created, started, completed, new BigDecimal(credits), usage, draft, evidence(), definition());
    }

    private static Evidence evidence() {
        return new Evidence("blocked", List.of(new Unavailable("analytics", "missing")));
    }

    private static Definition definition() {
        return new Definition("content-refresh", "Rewrites pages whose AI citations dropped, from the project's evidence",
                "Content refresh", "content_refresh", "page_draft", false, evidence(),
                List.of("open_draft", "request_changes", "approve"));
    }

    private static Map<String, Object> draft(String title) {
        Map<String, Object> draft = new LinkedHashMap<>();
        draft.put("title", title);
        draft.put("format", "markdown");
        draft.put("sections", List.of("What changed", "Answers to the top prompts", "Sources"));
        draft.put("wordCount", 840);
        return draft;
    }

    /** The threads, their handoffs and the credits they used; empty without the demo member. */
    public List<AssistantThreadRecorded> threads() {
        if (memberId == null) {
            return List.of();
        }
        List<AssistantThreadRecorded> out = new ArrayList<>();
        Instant started = now.minus(Duration.ofHours(3));
        UUID thread = handoffThread();
        out.add(created(thread, memberId, "Why did our citations on pricing drop?", started));
        out.add(credits(thread, "2.5", started.plusSeconds(40)));
        out.add(offered(thread, id("handoff:pending"), "Technical SEO specialist", "technical-seo", "40",
                now.plus(Duration.ofDays(30)), "Audit the pricing pages for crawl blocks and stale canonical tags",
                started.plusSeconds(60)));
        out.add(offered(thread, id("handoff:past-expiry"), "Content strategist", "content-strategy", "25",
                now.minus(Duration.ofMinutes(30)), "Outline a comparison page against the two cited competitors",
                started.plusSeconds(70)));
        out.add(offered(thread, id("handoff:expired"), "Analytics specialist", "analytics", "15",
                now.plus(Duration.ofDays(1)), "Connect analytics so that evidence is not blocked", started.plusSeconds(80)));
        out.add(handoff(thread, AssistantThreadRecorded.HANDOFF_EXPIRED, id("handoff:expired"), started.plusSeconds(3600)));
        out.add(offered(thread, id("handoff:accepted"), "Docs writer", "docs-writer", "30",
                now.plus(Duration.ofDays(30)), "Draft a pricing FAQ from the prompts that cite competitors",
                started.plusSeconds(90)));
        out.add(handoff(thread, AssistantThreadRecorded.HANDOFF_ACCEPTED, id("handoff:accepted"), started.plusSeconds(120)));
        out.add(credits(thread, "1.25", started.plusSeconds(130)));

        UUID deletable = deletableThread();
        out.add(created(deletable, memberId, "Draft a launch post for the new plan", started.plusSeconds(600)));
        out.add(credits(deletable, "3", started.plusSeconds(660)));
        out.add(offered(deletable, id("handoff:deletable"), "Docs writer", "docs-writer", "30",
                now.plus(Duration.ofDays(30)), "Turn the outline into a post", started.plusSeconds(700)));

        out.add(created(othersThread(), otherMember(), "Competitor pricing questions", started.plusSeconds(900)));
        out.add(offered(othersThread(), id("handoff:colleague"), "Competitive analyst", "competitive", "20",
                now.plus(Duration.ofDays(30)), "Compare the three competitors' plan limits", started.plusSeconds(960)));
        return out;
    }

    private AssistantThreadRecorded created(UUID thread, UUID owner, String title, Instant at) {
        return new AssistantThreadRecorded(eventId(thread, "created"), projectId, thread, AssistantThreadRecorded.THREAD_CREATED,
                at, owner, title, null, null, null);
    }

    private AssistantThreadRecorded offered(UUID thread, UUID handoffId, String agent, String agentKey, String estimate,
            Instant expiresAt, String instructions, Instant at) {
        return new AssistantThreadRecorded(eventId(handoffId, "offered"), projectId, thread,
                AssistantThreadRecorded.HANDOFF_OFFERED, at, null, null,
                new Handoff(handoffId, agent, agentKey, new BigDecimal(estimate), expiresAt, instructions), null, null);
    }

    private AssistantThreadRecorded handoff(UUID thread, String kind, UUID handoffId, Instant at) {
        return new AssistantThreadRecorded(eventId(handoffId, kind), projectId, thread, kind, at, null, null, null, handoffId,
                null);
    }

    private AssistantThreadRecorded credits(UUID thread, String credits, Instant at) {
        return new AssistantThreadRecorded(eventId(thread, "credits:" + credits), projectId, thread,
                AssistantThreadRecorded.CREDITS_USED, at, null, null, null, null, new BigDecimal(credits));
    }

    private static UUID eventId(UUID subject, String what) {
        return UUID.nameUUIDFromBytes((subject + ":" + what).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Example request paths ({@code ./suite} turns them into curl commands with the demo key). The
     * {@code E10} examples are DELETEs: {@code ./suite} adds the method.
     */
    public Map<String, String> examples() {
        String base = "/api/v2/projects/" + projectId + "/agents";
        Map<String, String> examples = new LinkedHashMap<>();
        examples.put("E8_completed_with_draft", base + "/runs/" + reviewedRun());
        examples.put("E8_awaiting_review", base + "/runs/" + awaitingReviewRun());
        examples.put("E8_running", base + "/runs/" + runningRun());
        if (memberId != null) {
            examples.put("E9", base + "/assistant/threads/" + handoffThread() + "/handoffs");
            examples.put("E9_not_thread_owner", base + "/assistant/threads/" + othersThread() + "/handoffs");
            examples.put("E10", base + "/assistant/threads/" + deletableThread());
        }
        return examples;
    }
}

package dev.visibility.actions.recommendations;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import dev.visibility.actions.action.ActionContext;
import dev.visibility.actions.action.ActionEntity;
import dev.visibility.actions.action.ActionRepository;
import dev.visibility.actions.action.ActionStatus;
import dev.visibility.actions.action.Actor;
import dev.visibility.actions.action.Brief;
import dev.visibility.actions.action.MaterialFacts;
import dev.visibility.actions.action.Opportunity;
import dev.visibility.actions.config.ActionsProperties;
import dev.visibility.actions.events.ActionEvents;
import dev.visibility.actions.history.ActionHistory;
import dev.visibility.actions.history.Change;
import dev.visibility.actions.write.ActionWriteService;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Applies {@code recommendations} records (spec 6): creates suggested actions, updates them, and
 * takes them back. The consumer applies a poll's records in one transaction ({@link #ingestAll}):
 * the claims of their eventIds, then each record's rows, history and outbox events in the topic's
 * order, so that a record sees what the records before it wrote (a later update of the same
 * recommendation, the percentile pool a new one joins).
 * <ul>
 * <li>New recommendation: {@code action.created} and {@code action.recommendation.created}.</li>
 * <li>Update: {@code action.updated} when a customer-visible field changed; and
 * {@code action.recommendation.updated} only when {@link MaterialFacts} changed. A reorder, a
 * bucket (backlog) move, small citation drift, an evidence reorder, wording, or a brief that is
 * absent from the record fire no recommendation event.</li>
 * <li>Withdraw before anyone acted on the suggestion: the action is deleted, with no event.
 * After someone acted on it while still suggested: archived as withdrawn ({@code action.updated}).
 * Adopted work stays as it is.</li>
 * </ul>
 */
@Service
public class RecommendationIngestion {

    /** The processed_events consumer name of this listener. */
    static final String CONSUMER = "actions-service.recommendations";
    static final int MAX_WHY_NOW = 500;

    /** Visible fields whose change fires {@code action.updated}, by their spec 6.2 names. */
    static final String TITLE = "title";
    static final String DESCRIPTION = "description";
    static final String CHANNELS = "channels";
    static final String EXPECTED_IMPACT = "expected_impact";
    static final String OWNER_NAME = "owner_name";
    static final String PORTFOLIO_CATEGORY = "portfolio_category";
    static final String PRIMARY_CTA_KIND = "primary_cta_kind";

    public enum Outcome { CREATED, UPDATED, UNCHANGED, REMOVED, ARCHIVED, IGNORED }

    private final ActionRepository actions;
    private final ActionHistory history;
    private final ActionEvents events;
    private final ActionsProperties properties;
    private final JsonMapper canonical = JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

    public RecommendationIngestion(ActionRepository actions, ActionHistory history, ActionEvents events,
            ActionsProperties properties) {
        this.actions = actions;
        this.history = history;
        this.events = events;
        this.properties = properties;
    }

    /**
     * Applies a poll's validated records one after the other, in the transaction in which the
     * platform's batch consumer claimed their eventIds ({@link RecommendationConsumer}; the list holds
     * no record applied before).
     */
    public Mono<Void> ingestAll(List<RecommendationCandidate> records) {
        return Flux.fromIterable(records).concatMap(this::apply).then();
    }

    private Mono<Outcome> apply(RecommendationCandidate c) {
        UUID project = UUID.fromString(c.projectId());
        return actions.findByFingerprintForUpdate(project, c.recommendationId())
                .map(java.util.Optional::of).defaultIfEmpty(java.util.Optional.empty())
                .flatMap(existing -> {
                    if (c.isWithdraw()) {
                        return existing.map(a -> withdraw(a, c)).orElse(Mono.just(Outcome.IGNORED));
                    }
                    return existing.map(a -> update(a, c)).orElseGet(() -> create(project, c));
                });
    }

    // --- create -------------------------------------------------------------------------------

    private Mono<Outcome> create(UUID project, RecommendationCandidate c) {
        Instant now = now();
        ActionEntity a = new ActionEntity();
        a.id = UUID.randomUUID();
        a.projectId = project;
        a.accountId = c.accountId();
        a.origin = ActionEntity.ORIGIN_SYSTEM;
        a.fingerprintKey = c.recommendationId();
        a.status = ActionStatus.SUGGESTED.wire();
        a.suggestionStatus = ActionEntity.SUGGESTION_OPEN;
        a.createdAt = now;
        a.updatedAt = now;
        fill(a, c);
        MaterialFacts facts = facts(c, currentCitations(c.evidence()));
        a.material = facts;
        a.materialHash = hash(facts);
        if (c.brief() != null) {
            a.brief = brief(c.brief(), now);
            a.briefBasisHash = a.materialHash;
        }
        a.promptCount = facts.promptIds().size();
        return ranking(a)
                .then(classification(project, c.recommendationId(), a.materialHash))
                .flatMap(classification -> actions.insert(a)
                        .then(actions.replacePromptLinks(project, a.id, facts.promptIds()))
                        .then(actions.markRanksPending(project))
                        .then(history.record(project, a.id, now, ActionHistory.CREATED, Actor.system(), List.of()))
                        .then(events.created(a, Actor.system(), c.accountId()))
                        .then(events.recommendationCreated(a, c.accountId(), classification)))
                .thenReturn(Outcome.CREATED);
    }

    /** brief_stale_only when the same facts were suggested before and withdrawn: only the brief needs a look. */
    private Mono<String> classification(UUID project, String key, String materialHash) {
        DatabaseClient db = actions.db();
        return db.sql("DELETE FROM withdrawn_recommendations WHERE project_id = :project AND fingerprint_key = :key"
                        + " RETURNING material_hash")
                .bind("project", project).bind("key", key)
                .map(row -> row.get(0, String.class)).one()
                .map(previous -> previous.equals(materialHash) ? ActionEvents.CLASSIFICATION_BRIEF_STALE_ONLY
                        : ActionEvents.CLASSIFICATION_NEW)
                .defaultIfEmpty(ActionEvents.CLASSIFICATION_NEW);
    }

    // --- update -------------------------------------------------------------------------------

    private Mono<Outcome> update(ActionEntity current, RecommendationCandidate c) {
        if (current.hidden) {
            // dismissed by the team or withdrawn: not on any surface, and not revived by the producer
            return Mono.just(Outcome.IGNORED);
        }
        ActionEntity next = current.copy();
        fill(next, c);
        int citations = currentCitations(c.evidence());
        MaterialFacts before = current.material;
        MaterialFacts facts = facts(c, citations);
        List<String> reasons = before == null ? List.of() : before.changeReasons(facts, citations);
        // the citation baseline moves only with a material citation change, so drift cannot creep
        next.material = reasons.contains(MaterialFacts.CITATION_LOSS_CHANGED) || before == null
                ? facts : facts.withCitationBaseline(before.citationBaseline());
        next.materialHash = hash(next.material);
        next.promptCount = facts.promptIds().size();
        if (c.brief() != null && (current.brief == null || !sameBrief(current.brief, c.brief()))) {
            next.brief = brief(c.brief(), now());
            next.briefBasisHash = next.materialHash;
        }
        List<Change> changes = visibleChanges(current, next);
        boolean rankingChanged = !Objects.equals(current.score, next.score)
                || !Objects.equals(current.family, next.family)
                || !Objects.equals(current.percentileStatus, next.percentileStatus);
        boolean stored = changes.size() > 0 || !reasons.isEmpty() || rankingChanged || differs(current, next);
        if (!stored) {
            return Mono.just(Outcome.UNCHANGED);
        }
        if (!changes.isEmpty() || !reasons.isEmpty()) {
            next.updatedAt = now();
        }
        boolean onSurface = !next.hidden && next.statusEnum() != ActionStatus.ARCHIVED;
        List<String> fields = changes.stream().map(Change::field).toList();
        Mono<Void> work = ranking(next)
                .then(actions.update(next))
                .then(before != null && before.promptIds().equals(facts.promptIds()) ? Mono.<Void>empty()
                        : actions.replacePromptLinks(next.projectId, next.id, facts.promptIds()))
                .then(rankingChanged ? actions.markRanksPending(next.projectId) : Mono.<Void>empty());
        if (!changes.isEmpty()) {
            work = work.then(history.record(next.projectId, next.id, next.updatedAt, ActionHistory.UPDATED, Actor.system(), changes))
                    .then(events.updated(next, Actor.system(), c.accountId(), fields));
        }
        if (!reasons.isEmpty() && onSurface) {
            List<Change> why = reasons.stream().map(r -> new Change(r, null, null)).toList();
            work = work.then(history.record(next.projectId, next.id, next.updatedAt, ActionHistory.RECOMMENDATION_UPDATED,
                            Actor.system(), why))
                    .then(events.recommendationUpdated(next, c.accountId(), fields, reasons));
        }
        return work.thenReturn(Outcome.UPDATED);
    }

    /** Anything stored that the row does not have yet (evidence order, wording, bucket, brief…). */
    private boolean differs(ActionEntity a, ActionEntity b) {
        return !Objects.equals(canonical.writeValueAsString(snapshot(a)), canonical.writeValueAsString(snapshot(b)));
    }

    private static List<Object> snapshot(ActionEntity a) {
        List<Object> s = new ArrayList<>();
        s.add(a.title); s.add(a.description); s.add(a.channels); s.add(a.priority); s.add(a.bucket);
        s.add(a.opportunity); s.add(a.effortScore); s.add(a.portfolioCategory); s.add(a.steeredFromPageUrl);
        s.add(a.followUpOf); s.add(a.expectedImpact); s.add(a.primaryCtaKind); s.add(a.targetLabel); s.add(a.targetType);
        s.add(a.targetPayload); s.add(a.whatChanged); s.add(a.whyNow); s.add(a.commandCenter); s.add(a.highStakes);
        s.add(a.ownerName); s.add(a.context); s.add(a.brief); s.add(a.material); s.add(a.score);
        return s;
    }

    static List<Change> visibleChanges(ActionEntity a, ActionEntity b) {
        List<Change> changes = new ArrayList<>();
        compare(changes, TITLE, a.title, b.title);
        compare(changes, DESCRIPTION, a.description, b.description);
        if (!new java.util.TreeSet<>(a.channels).equals(new java.util.TreeSet<>(b.channels))) {
            changes.add(new Change(CHANNELS, a.channels, b.channels));
        }
        compare(changes, ActionWriteService.PRIORITY, a.priority, b.priority);
        compare(changes, ActionWriteService.TARGET_LABEL, a.targetLabel, b.targetLabel);
        compare(changes, EXPECTED_IMPACT, a.expectedImpact, b.expectedImpact);
        compare(changes, OWNER_NAME, a.ownerName, b.ownerName);
        compare(changes, PORTFOLIO_CATEGORY, a.portfolioCategory, b.portfolioCategory);
        compare(changes, PRIMARY_CTA_KIND, a.primaryCtaKind, b.primaryCtaKind);
        return changes;
    }

    private static void compare(List<Change> changes, String field, Object from, Object to) {
        if (!Objects.equals(from, to)) {
            changes.add(new Change(field, from, to));
        }
    }

    private static boolean sameBrief(Brief stored, Brief incoming) {
        return Objects.equals(stored.summary(), incoming.summary()) && Objects.equals(stored.steps(), incoming.steps())
                && (incoming.updatedAt() == null || Objects.equals(stored.updatedAt(), incoming.updatedAt()));
    }

    // --- withdraw -----------------------------------------------------------------------------

    private Mono<Outcome> withdraw(ActionEntity a, RecommendationCandidate c) {
        if (a.statusEnum() != ActionStatus.SUGGESTED || a.hidden) {
            // adopted or archived work belongs to the team now; nothing to take back
            return Mono.just(Outcome.IGNORED);
        }
        if (!a.actedOn) {
            // spec 6: withdrawn before anyone acted on it → removed, and no further events
            return actions.delete(a.id)
                    .then(actions.db().sql("""
                            INSERT INTO withdrawn_recommendations (project_id, fingerprint_key, material_hash, withdrawn_at)
                            VALUES (:project, :key, :hash, now())
                            ON CONFLICT (project_id, fingerprint_key) DO UPDATE SET material_hash = EXCLUDED.material_hash,
                                withdrawn_at = EXCLUDED.withdrawn_at""")
                            .bind("project", a.projectId).bind("key", a.fingerprintKey)
                            .bind("hash", a.materialHash == null ? "" : a.materialHash).then())
                    .then(actions.markRanksPending(a.projectId))
                    .thenReturn(Outcome.REMOVED);
        }
        ActionEntity next = a.copy();
        next.status = ActionStatus.ARCHIVED.wire();
        next.suggestionStatus = ActionEntity.SUGGESTION_WITHDRAWN;
        next.hidden = true;
        next.updatedAt = now();
        List<Change> changes = List.of(new Change(ActionWriteService.STATUS, a.status, next.status));
        return actions.update(next)
                .then(actions.markRanksPending(a.projectId))
                .then(history.record(a.projectId, a.id, next.updatedAt, ActionHistory.WITHDRAWN, Actor.system(), changes))
                .then(events.updated(next, Actor.system(), c.accountId(), List.of(ActionWriteService.STATUS)))
                .thenReturn(Outcome.ARCHIVED);
    }

    // --- shared -------------------------------------------------------------------------------

    /** Copies the producer's fields, except those the team has set through the API. */
    private void fill(ActionEntity a, RecommendationCandidate c) {
        a.accountId = c.accountId();
        a.title = c.title();
        a.description = c.description();
        a.channels = new ArrayList<>(new java.util.LinkedHashSet<>(c.channels()));
        if (!a.userFields.contains(ActionWriteService.PRIORITY)) {
            a.priority = c.priority();
        }
        a.bucket = c.bucket();
        Opportunity o = c.opportunity();
        a.opportunity = o == null ? null : o.withRanking(null, null, null);
        a.family = o == null ? null : o.family();
        a.score = o == null ? null : o.score();
        a.percentileStatus = o == null ? null : rankable(o) ? Opportunity.RANKED : Opportunity.INSUFFICIENT_REACH;
        a.effortScore = c.effortScore();
        a.portfolioCategory = c.portfolioCategory();
        a.steeredFromPageUrl = c.steeredFromPageUrl();
        a.followUpOf = c.followUpOf();
        a.expectedImpact = c.expectedImpact();
        a.primaryCtaKind = c.primaryCtaKind();
        if (!a.userFields.contains(ActionWriteService.TARGET_LABEL)) {
            a.targetLabel = c.target() == null ? null : c.target().label();
        }
        a.targetType = c.target() == null ? null : c.target().type();
        a.targetPayload = c.target() == null ? null : c.target().payload();
        a.whatChanged = c.whatChanged();
        a.whyNow = c.whyNow() == null || c.whyNow().length() <= MAX_WHY_NOW ? c.whyNow()
                : c.whyNow().substring(0, MAX_WHY_NOW - 1) + "…";
        a.commandCenter = Boolean.TRUE.equals(c.isCommandCenter());
        a.highStakes = Boolean.TRUE.equals(c.highStakes());
        a.ownerName = c.ownerName();
        a.context = c.evidence() == null ? ActionContext.empty() : c.evidence();
    }

    private boolean rankable(Opportunity o) {
        return o.components() != null && o.components().reach() != null
                && o.components().reach().value() >= properties.minReach();
    }

    /** Percentile and pool size within the signal family, counted now, this action included. */
    private Mono<Void> ranking(ActionEntity a) {
        if (!Opportunity.RANKED.equals(a.percentileStatus) || a.statusEnum() != ActionStatus.SUGGESTED || a.hidden) {
            if (a.statusEnum() == ActionStatus.SUGGESTED && !a.hidden) {
                a.percentile = null;
                a.percentilePoolSize = null;
                a.portfolioRank = null;
            }
            return Mono.empty();
        }
        return actions.poolPosition(a.projectId, a.family, a.score, a.id).doOnNext(pool -> {
            long size = pool[0] + 1;
            long atOrBelow = pool[1] + 1;
            a.percentilePoolSize = (int) size;
            a.percentile = Math.round(1000.0 * atOrBelow / size) / 10.0;
        }).then();
    }

    private MaterialFacts facts(RecommendationCandidate c, int citations) {
        List<String> prompts = new ArrayList<>();
        List<String> evidence = new ArrayList<>();
        if (c.evidence() != null && c.evidence().topEvidence() != null) {
            for (ActionContext.TopEvidence e : c.evidence().topEvidence()) {
                evidence.add(String.valueOf(e.id()));
                if (e.citationLoss() != null && e.citationLoss().cells() != null) {
                    e.citationLoss().cells().forEach(cell -> prompts.add(cell.promptId().toString()));
                }
            }
        }
        return new MaterialFacts(
                c.target() == null ? null : c.target().label(),
                c.target() == null ? null : c.target().type(),
                c.target() == null ? null : c.target().payload(),
                prompts, evidence, c.channels(), c.priority(),
                c.opportunity() == null ? null : c.opportunity().family(),
                Boolean.TRUE.equals(c.highStakes()), citations);
    }

    static int currentCitations(ActionContext evidence) {
        if (evidence == null || evidence.topEvidence() == null) {
            return 0;
        }
        return evidence.topEvidence().stream()
                .filter(e -> e.citationLoss() != null)
                .mapToInt(e -> e.citationLoss().currentCitationCount())
                .sum();
    }

    private String hash(MaterialFacts facts) {
        return facts.hash(canonical.writeValueAsString(facts));
    }

    private static Brief brief(Brief b, Instant now) {
        return new Brief(b.summary(), b.steps() == null ? List.of() : b.steps(),
                b.generatedAt() == null ? now : b.generatedAt(), b.updatedAt() == null ? now : b.updatedAt());
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}

package dev.visibility.actions.write;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import dev.visibility.actions.action.ActionEntity;
import dev.visibility.actions.action.ActionRepository;
import dev.visibility.actions.action.ActionStatus;
import dev.visibility.actions.action.Actor;
import dev.visibility.actions.events.ActionEvents;
import dev.visibility.actions.history.ActionHistory;
import dev.visibility.actions.history.Change;
import dev.visibility.platform.error.InvalidParameter;
import dev.visibility.platform.error.NotFound;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Creates and updates actions on behalf of a user (the write API and the local demo use this one
 * path). Each write is one transaction: the row, its history entry and its {@code action.*}
 * event in the outbox.
 */
@Service
public class ActionWriteService {

    /** Field names of spec 6.2 {@code changedFields}. */
    public static final String STATUS = "status";
    public static final String ASSIGNED_TO = "assigned_to";
    public static final String PRIORITY = "priority";
    public static final String TARGET_LABEL = "target_label";
    public static final String BLOCKED = "blocked";

    private final ActionRepository actions;
    private final ActionHistory history;
    private final ActionEvents events;
    private final TransactionalOperator tx;

    public ActionWriteService(ActionRepository actions, ActionHistory history, ActionEvents events, TransactionalOperator tx) {
        this.actions = actions;
        this.history = history;
        this.events = events;
        this.tx = tx;
    }

    public Mono<ActionEntity> create(UUID projectId, String accountId, Actor actor, NewAction body) {
        Instant now = now();
        ActionEntity a = new ActionEntity();
        a.id = UUID.randomUUID();
        a.projectId = projectId;
        a.accountId = accountId;
        a.origin = actor.origin();
        a.title = body.title();
        a.description = body.description();
        a.channels = new ArrayList<>(body.channels());
        a.priority = body.priority();
        a.status = ActionStatus.SUGGESTED.wire();
        a.assignedTo = body.assignedTo();
        a.targetLabel = body.targetLabel();
        a.createdAt = now;
        a.updatedAt = now;
        a.suggestionStatus = ActionEntity.SUGGESTION_OPEN;
        a.actedOn = true;
        return tx.transactional(actions.insert(a)
                .then(history.record(projectId, a.id, now, ActionHistory.CREATED, actor, List.of()))
                .then(events.created(a, actor, accountId))
                .thenReturn(a));
    }

    public Mono<ActionEntity> update(UUID projectId, UUID actionId, String accountId, Actor actor, ActionPatch patch) {
        return tx.transactional(actions.findForUpdate(projectId, actionId)
                .switchIfEmpty(Mono.error(() -> new NotFound("No action " + actionId + " in this project")))
                .flatMap(current -> {
                    ActionEntity next = current.copy();
                    List<Change> changes = apply(current, next, patch);
                    if (changes.isEmpty()) {
                        return Mono.just(current);
                    }
                    next.updatedAt = now();
                    next.actedOn = true;
                    List<String> fields = changes.stream().map(Change::field).toList();
                    Mono<Void> ranks = fields.contains(STATUS) ? actions.markRanksPending(projectId) : Mono.empty();
                    return actions.update(next)
                            .then(ranks)
                            .then(history.record(projectId, actionId, next.updatedAt, ActionHistory.UPDATED, actor, changes))
                            .then(events.updated(next, actor, accountId, fields))
                            .thenReturn(next);
                }));
    }

    /** Applies the patch to {@code next}; answers the changes, or throws a 400 for a refused one. */
    static List<Change> apply(ActionEntity current, ActionEntity next, ActionPatch patch) {
        List<Change> changes = new ArrayList<>();
        ActionStatus from = current.statusEnum();
        ActionStatus to = patch.status() == null ? from : patch.status();
        if (to != from) {
            if (!from.canMoveTo(to)) {
                throw new InvalidParameter("status", "Field 'status': an action cannot move from " + from.wire() + " to " + to.wire()
                        + "; from " + from.wire() + " it can move to "
                        + String.join(", ", from.next().stream().map(ActionStatus::wire).sorted().toList()));
            }
            if (from == ActionStatus.ARCHIVED && ActionEntity.SUGGESTION_WITHDRAWN.equals(current.suggestionStatus)) {
                throw new InvalidParameter("status", "Field 'status': this recommendation was withdrawn and cannot be restored");
            }
            next.status = to.wire();
            changes.add(new Change(STATUS, from.wire(), to.wire()));
            moveSuggestion(current, next, from, to);
        }
        boolean blocked = patch.blocked() == null ? current.blocked && to == ActionStatus.ACCEPTED : patch.blocked();
        if (blocked && to != ActionStatus.ACCEPTED) {
            throw new InvalidParameter("blocked", "Field 'blocked': only accepted actions can be blocked; this one would be " + to.wire());
        }
        if (blocked != current.blocked) {
            next.blocked = blocked;
            changes.add(new Change(BLOCKED, current.blocked, blocked));
        }
        if (patch.assignedTo() != null && !Objects.equals(patch.assignedTo().value(), current.assignedTo)) {
            next.assignedTo = patch.assignedTo().value();
            changes.add(new Change(ASSIGNED_TO, str(current.assignedTo), str(next.assignedTo)));
        }
        if (patch.priority() != null && !patch.priority().equals(current.priority)) {
            next.priority = patch.priority();
            changes.add(new Change(PRIORITY, current.priority, next.priority));
            ownedByTeam(next, PRIORITY);
        }
        if (patch.targetLabel() != null && !Objects.equals(patch.targetLabel().value(), current.targetLabel)) {
            next.targetLabel = patch.targetLabel().value();
            changes.add(new Change(TARGET_LABEL, current.targetLabel, next.targetLabel));
            ownedByTeam(next, TARGET_LABEL);
        }
        return changes;
    }

    private static void moveSuggestion(ActionEntity current, ActionEntity next, ActionStatus from, ActionStatus to) {
        switch (to) {
            case ACCEPTED, LIVE -> {
                next.suggestionStatus = ActionEntity.SUGGESTION_ADOPTED;
                next.hidden = false;
                if (to == ActionStatus.LIVE) {
                    next.shippedAt = now();
                }
            }
            case SUGGESTED -> {
                // back to the backlog, or a dismissed suggestion restored
                next.suggestionStatus = ActionEntity.SUGGESTION_OPEN;
                next.hidden = false;
            }
            case ARCHIVED -> {
                // a suggestion archived before anyone adopted it is dismissed: hidden, restorable
                if (from == ActionStatus.SUGGESTED) {
                    next.suggestionStatus = ActionEntity.SUGGESTION_DISMISSED;
                    next.hidden = true;
                }
            }
        }
    }

    private static void ownedByTeam(ActionEntity next, String field) {
        if (!next.userFields.contains(field)) {
            next.userFields.add(field);
        }
    }

    private static String str(UUID id) {
        return id == null ? null : id.toString();
    }

    /** Microsecond precision: what PostgreSQL stores, so an answer equals a later read. */
    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}

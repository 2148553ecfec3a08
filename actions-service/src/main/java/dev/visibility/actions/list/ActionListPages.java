package dev.visibility.actions.list;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.visibility.actions.action.ActionEntity;
import dev.visibility.actions.action.ActionRepository;
import dev.visibility.actions.action.ActionRepository.ListState;
import dev.visibility.actions.action.ActionView;
import dev.visibility.actions.action.ActionViews;
import dev.visibility.actions.config.ActionsProperties;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

/**
 * E3's {@code data}, kept rendered. A page is the JSON of its query and of the version of the
 * project's actions ({@link ActionRepository#listState}: every committed change of them changes it),
 * so a kept page is never stale: a change is a different key. The version is read before the page,
 * so a page kept under a version is never older than that version. A request reads the version and
 * the count in one query; only a page not kept reads the rows, renders them and keeps the JSON.
 * Bounded by {@code suite.actions.list-cache-chars}; a page not asked for in ten minutes is dropped.
 */
@Component
class ActionListPages {

    static final Duration IDLE = Duration.ofMinutes(10);
    /** What a kept page costs besides its characters (key, entry), counted so that many small pages stay bounded too. */
    static final int ENTRY_CHARS = 200;

    /** One query of one project at one version of its actions. */
    record Key(UUID project, @Nullable Integer statusOrder, int page, int pageSize, boolean context,
            ListState.Version version) {
    }

    private final ActionRepository actions;
    private final ObjectMapper mapper;
    private final @Nullable Cache<Key, RenderedJson> pages;

    ActionListPages(ActionRepository actions, ObjectMapper mapper, ActionsProperties properties) {
        this.actions = actions;
        this.mapper = mapper;
        this.pages = properties.listCacheChars() <= 0 ? null : Caffeine.newBuilder()
                .maximumWeight(properties.listCacheChars())
                .<Key, RenderedJson>weigher((key, json) -> ENTRY_CHARS + json.length())
                .expireAfterAccess(IDLE)
                .build();
    }

    Mono<RenderedJson> page(UUID project, @Nullable Integer statusOrder, int pageNumber, int pageSize, boolean context) {
        return actions.listState(project, statusOrder).flatMap(state -> {
            Key key = new Key(project, statusOrder, pageNumber, pageSize, context, state.version());
            RenderedJson kept = pages == null ? null : pages.getIfPresent(key);
            if (kept != null) {
                return Mono.just(kept);
            }
            return render(key, state.total()).doOnNext(json -> {
                if (pages != null) {
                    pages.put(key, json);
                }
            });
        });
    }

    private Mono<RenderedJson> render(Key key, long total) {
        long offset = (long) (key.page() - 1) * key.pageSize();
        ActionList.Pagination pagination = new ActionList.Pagination(key.page(), key.pageSize(), total,
                (total + key.pageSize() - 1) / key.pageSize());
        // a page beyond the count of the same snapshot as the version is empty without reading rows
        Mono<List<ActionView>> views = offset >= total ? Mono.just(List.of())
                : actions.page(key.project(), key.statusOrder(), key.pageSize(), offset, key.context()).collectList()
                        .flatMap(rows -> views(key.project(), rows, key.context()));
        return views.map(list -> new RenderedJson(mapper.writeValueAsString(new ActionList(list, pagination))));
    }

    private Mono<List<ActionView>> views(UUID project, List<ActionEntity> rows, boolean context) {
        if (!context) {
            return Mono.just(rows.stream().map(ActionViews::summary).toList());
        }
        return actions.followUps(project, rows.stream().map(a -> a.id).toList())
                .map(followUps -> rows.stream()
                        .map(a -> ActionViews.withContext(a, followUps.getOrDefault(a.id, List.of())))
                        .toList());
    }
}

package dev.visibility.actions.list;

import java.util.List;

import dev.visibility.actions.action.ActionView;

/** {@code data} of E3: one page of actions and where it lies. */
public record ActionList(List<ActionView> actions, Pagination pagination) {

    public record Pagination(int page, int pageSize, long totalCount, long totalPages) {
    }
}

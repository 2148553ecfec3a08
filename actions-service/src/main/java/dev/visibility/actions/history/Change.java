package dev.visibility.actions.history;

/** One changed field of an action: its spec 6.2 name and its value before and after. */
public record Change(String field, Object from, Object to) {
}

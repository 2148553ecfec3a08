package dev.visibility.agents.threads;

/** {@code data} of E10: {@code {status: "deleted"}}. */
public record ThreadDeleted(String status) {

    static final ThreadDeleted DELETED = new ThreadDeleted("deleted");
}

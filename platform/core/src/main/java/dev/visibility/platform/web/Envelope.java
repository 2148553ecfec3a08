package dev.visibility.platform.web;

/**
 * The {@code {data, meta}} wrapper of successful reads (spec 1, 2.1). Endpoints that the
 * specification lists without meta (E6, E12, E15) return their own shape instead.
 */
public record Envelope<T>(T data, Meta meta) {

    public static <T> Envelope<T> of(T data, String projectId) {
        return new Envelope<>(data, Meta.now(projectId));
    }
}

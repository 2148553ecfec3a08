package dev.visibility.visibility.responses;

/** The {@code {data}} body of the endpoints that section 4 lists without meta (E12). */
public record DataOnly<T>(T data) {
}

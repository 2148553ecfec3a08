package dev.visibility.local;

/** A command that cannot go on: its message is printed as it is, the exit code says why (1 suite, 2 usage). */
final class CliException extends RuntimeException {

    private final int exitCode;

    CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}

package dev.visibility.platform.testing;

import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Registered for every test class of a module with platform-testing (META-INF/services and
 * {@code junit.jupiter.extensions.autodetection.enabled=true} in the root pom's surefire
 * configuration): installs {@link BlockingCalls} before the first class, and fails a test (or, for
 * calls after its last test, the class) during which a non-blocking thread blocked.
 */
public class BlockHoundExtension implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        BlockingCalls.install();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        failIfAnyBlocked(context.getDisplayName());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        failIfAnyBlocked(context.getDisplayName());
    }

    private static void failIfAnyBlocked(String where) {
        List<String> found = BlockingCalls.drain();
        if (!found.isEmpty()) {
            throw new AssertionError(found.size() + " blocking call(s) on a non-blocking thread during " + where + ":\n"
                    + String.join("\n", found));
        }
    }
}

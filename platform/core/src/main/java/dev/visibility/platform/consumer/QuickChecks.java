package dev.visibility.platform.consumer;

import java.time.Instant;
import java.util.UUID;

/**
 * Checks a {@link QuickReader} needs, each accepting only values that the topic schemas' keywords and
 * the platform's full reading accept alike (a subset; whatever they do not accept goes to the full
 * reading).
 */
public final class QuickChecks {

    private QuickChecks() {
    }

    /**
     * The UUID of a {@code "format": "uuid"} member in its canonical 8-4-4-4-12 form (either case), as the
     * full reading gives it; null for any other text.
     */
    public static UUID uuid(String text) {
        return SchemaFormats.isCanonicalUuid(text) ? UUID.fromString(text) : null;
    }

    /**
     * The instant of a {@code "format": "date-time"} member in the strict RFC 3339 form
     * ({@code 2026-11-26T10:15:30[.f{1,9}](Z|±hh:mm)}), as the full reading gives it; null for any other text.
     */
    public static Instant instant(String text) {
        return RecordInstants.parse(text);
    }

    /**
     * Whether {@code text} holds only printable ASCII (U+0020 to U+007E) and from {@code minLength} to
     * {@code maxLength} characters: then its length counts as a schema's {@code minLength} and
     * {@code maxLength} count (code points), and it holds no character the platform refuses (control
     * characters) or that a pattern's {@code $} or {@code .} could judge otherwise (line terminators).
     */
    public static boolean printableAscii(String text, int minLength, int maxLength) {
        int n = text.length();
        if (n < minLength || n > maxLength) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }
}

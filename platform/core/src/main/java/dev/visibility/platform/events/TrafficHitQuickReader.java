package dev.visibility.platform.events;

import java.time.Instant;
import java.util.UUID;

import dev.visibility.platform.consumer.QuickChecks;
import dev.visibility.platform.consumer.QuickReader;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads a {@code traffic.hits} record in one pass of a streaming parser when it is in the common form
 * that {@code docs/events/traffic.hits.schema.json} accepts, and leaves every other value to the
 * platform's full reading ({@link QuickReader}). "Common form": one JSON object with each of the
 * schema's members at most once and no other member; {@code eventId} and {@code projectId} canonical
 * UUIDs; {@code source}, {@code hostname}, {@code path}, {@code sessionId} and the {@code botName} or
 * {@code referrer} set printable ASCII within the schema's lengths, the hostname of DNS labels and the
 * path beginning with {@code /}; {@code status} an integer literal from 100 to 599; {@code observedAt}
 * in the strict RFC 3339 form; {@code schemaVersion}, when present, the literal {@code 1}; nothing
 * after the object. Such a value the schema accepts and the full reading maps to the same record
 * ({@code TrafficHitQuickReaderTest} checks both on generated and mutated records). The sensors'
 * records are of this form; a percent-encoded path is printable ASCII.
 *
 * <p>The full reading (a JSON tree, the schema's validators, the mapping) was about half of a
 * {@code traffic.hits} consumer's CPU (bench/TrafficBench.md, session 33).
 */
public final class TrafficHitQuickReader implements QuickReader<TrafficHitObserved> {

    private static final JsonFactory JSON = new JsonFactory();

    private static final int EVENT_ID = 1;
    private static final int PROJECT_ID = 1 << 1;
    private static final int SOURCE = 1 << 2;
    private static final int HOSTNAME = 1 << 3;
    private static final int PATH = 1 << 4;
    private static final int STATUS = 1 << 5;
    private static final int BOT_NAME = 1 << 6;
    private static final int REFERRER = 1 << 7;
    private static final int SESSION_ID = 1 << 8;
    private static final int OBSERVED_AT = 1 << 9;
    private static final int SCHEMA_VERSION = 1 << 10;
    private static final int REQUIRED = EVENT_ID | PROJECT_ID | SOURCE | HOSTNAME | PATH | STATUS | SESSION_ID | OBSERVED_AT;

    @Override
    public TrafficHitObserved readOrNull(String value) {
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), value)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            UUID eventId = null;
            UUID projectId = null;
            String source = null;
            String hostname = null;
            String path = null;
            int status = 0;
            String botName = null;
            String referrer = null;
            String sessionId = null;
            Instant observedAt = null;
            int seen = 0;
            String name;
            while ((name = p.nextName()) != null) {
                JsonToken token = p.nextToken();
                int member = member(name);
                if (member == 0 || (seen & member) != 0) {
                    return null;
                }
                seen |= member;
                if (member == STATUS || member == SCHEMA_VERSION) {
                    if (token != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) {
                        return null;
                    }
                    int number = p.getIntValue();
                    if (member == SCHEMA_VERSION ? number != 1 : number < 100 || number > 599) {
                        return null;
                    }
                    status = member == STATUS ? number : status;
                    continue;
                }
                if (token == JsonToken.VALUE_NULL && (member == BOT_NAME || member == REFERRER)) {
                    continue;
                }
                if (token != JsonToken.VALUE_STRING) {
                    return null;
                }
                String text = p.getString();
                boolean usable = switch (member) {
                    case EVENT_ID -> (eventId = QuickChecks.uuid(text)) != null;
                    case PROJECT_ID -> (projectId = QuickChecks.uuid(text)) != null;
                    case SOURCE -> QuickChecks.printableAscii(source = text, 1, 100);
                    case HOSTNAME -> QuickChecks.printableAscii(hostname = text, 1, 253) && isHostname(text);
                    case PATH -> QuickChecks.printableAscii(path = text, 1, 2048) && text.charAt(0) == '/';
                    case BOT_NAME -> QuickChecks.printableAscii(botName = text, 1, 100);
                    case REFERRER -> QuickChecks.printableAscii(referrer = text, 1, 2048);
                    case SESSION_ID -> QuickChecks.printableAscii(sessionId = text, 1, 128);
                    case OBSERVED_AT -> (observedAt = QuickChecks.instant(text)) != null;
                    default -> false;
                };
                if (!usable) {
                    return null;
                }
            }
            if ((seen & REQUIRED) != REQUIRED || p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return null;
            }
            return new TrafficHitObserved(eventId, projectId, source, hostname, path, status, botName, referrer, sessionId,
                    observedAt);
        }
    }

    private static int member(String name) {
        return switch (name) {
            case "eventId" -> EVENT_ID;
            case "projectId" -> PROJECT_ID;
            case "source" -> SOURCE;
            case "hostname" -> HOSTNAME;
            case "path" -> PATH;
            case "status" -> STATUS;
            case "botName" -> BOT_NAME;
            case "referrer" -> REFERRER;
            case "sessionId" -> SESSION_ID;
            case "observedAt" -> OBSERVED_AT;
            case "schemaVersion" -> SCHEMA_VERSION;
            default -> 0;
        };
    }

    /**
     * The schema's hostname pattern, {@code ^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$},
     * for printable ASCII: dot-separated labels of 1 to 63 letters, digits and hyphens, neither
     * beginning nor ending with a hyphen.
     */
    static boolean isHostname(String text) {
        int start = 0;
        int n = text.length();
        for (int i = 0; i <= n; i++) {
            if (i < n && text.charAt(i) != '.') {
                char c = text.charAt(i);
                if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-')) {
                    return false;
                }
                continue;
            }
            int length = i - start;
            if (length < 1 || length > 63 || text.charAt(start) == '-' || text.charAt(i - 1) == '-') {
                return false;
            }
            start = i + 1;
        }
        return true;
    }
}

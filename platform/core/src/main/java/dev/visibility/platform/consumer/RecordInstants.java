package dev.visibility.platform.consumer;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.ext.javatime.deser.InstantDeserializer;
import tools.jackson.databind.module.SimpleModule;

/**
 * How a consumer reads an {@link Instant} member: the strict RFC 3339 form the topic schemas'
 * {@code date-time} members carry ({@code 2026-11-26T10:15:30Z}, an optional fraction of 1 to 9
 * digits, {@code Z} or {@code ±hh:mm}) is parsed by hand; anything else goes to Jackson's own
 * {@link InstantDeserializer#INSTANT}, as before. The hand-parsed form gives the same instant as
 * {@code DateTimeFormatter.ISO_INSTANT} (Jackson's), at a fraction of its cost: Jackson's
 * formatter was about 13 % of a consumer thread's CPU in the traffic benchmark (bench/TrafficBench.md).
 * A member with a format of its own ({@code @JsonFormat}) is read by Jackson's, unchanged.
 */
final class RecordInstants extends ValueDeserializer<Instant> {

    private static final ValueDeserializer<Instant> JACKSON = InstantDeserializer.INSTANT;

    static SimpleModule module() {
        return new SimpleModule("platform-record-instants").addDeserializer(Instant.class, new RecordInstants());
    }

    @Override
    public ValueDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
        ValueDeserializer<?> contextual = JACKSON.createContextual(ctxt, property);
        // a member with its own format (or leniency) keeps Jackson's reading entirely
        return contextual == JACKSON ? this : contextual;
    }

    @Override
    public Instant deserialize(JsonParser p, DeserializationContext ctxt) {
        if (p.currentToken() == JsonToken.VALUE_STRING && !ctxt.isEnabled(DateTimeFeature.TRUNCATE_TO_MSECS_ON_READ)) {
            Instant fast = parse(p.getString());
            if (fast != null) {
                return fast;
            }
        }
        return JACKSON.deserialize(p, ctxt);
    }

    @Override
    public Class<?> handledType() {
        return Instant.class;
    }

    /**
     * {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}](Z|±hh:mm)} as an Instant, or null when {@code s} is not
     * exactly that form or not a valid date and time (leap second, 24:00, February 30th, offset
     * beyond ±18:00): the caller then asks Jackson, which answers or refuses as it always did.
     */
    static Instant parse(String s) {
        int n = s.length();
        if (n < 20 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T' || s.charAt(13) != ':'
                || s.charAt(16) != ':') {
            return null;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        if ((year | month | day | hour | minute | second) < 0) {
            return null;
        }
        int i = 19;
        int nanos = 0;
        if (s.charAt(i) == '.') {
            int start = ++i;
            while (i < n && i - start < 10 && isDigit(s.charAt(i))) {
                nanos = nanos * 10 + (s.charAt(i) - '0');
                i++;
            }
            int count = i - start;
            if (count == 0 || count > 9) {
                return null;
            }
            for (int k = count; k < 9; k++) {
                nanos *= 10;
            }
        }
        if (i >= n) {
            return null;
        }
        int offsetSeconds;
        char zone = s.charAt(i);
        if (zone == 'Z' && i + 1 == n) {
            offsetSeconds = 0;
        } else if ((zone == '+' || zone == '-') && i + 6 == n && s.charAt(i + 3) == ':') {
            int offsetHours = digits(s, i + 1, 2);
            int offsetMinutes = digits(s, i + 4, 2);
            if ((offsetHours | offsetMinutes) < 0 || offsetMinutes > 59) {
                return null;
            }
            offsetSeconds = (zone == '-' ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
        } else {
            return null;
        }
        try {
            long epochSecond = LocalDateTime.of(year, month, day, hour, minute, second)
                    .toEpochSecond(ZoneOffset.ofTotalSeconds(offsetSeconds));
            return Instant.ofEpochSecond(epochSecond, nanos);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** The non-negative number of {@code count} ASCII digits at {@code from}, or -1. */
    private static int digits(String s, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (!isDigit(c)) {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}

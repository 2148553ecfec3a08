package dev.visibility.platform.consumer;

import java.util.Map;
import java.util.function.Predicate;

import com.networknt.schema.ExecutionContext;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.format.Format;

/**
 * The JSON Schema 2020-12 dialect the consumers validate with: networknt's own, except that the
 * {@code uuid} and {@code date-time} formats first try a hand-written check of their usual form (a
 * 36-character UUID; {@link RecordInstants#parse}'s RFC 3339 form) and ask networknt's check only
 * when that one does not accept the value. Both quick checks accept a subset of what networknt's
 * accept ({@code SchemaFormatsTest}), so every value is judged as before; networknt's are a regular
 * expression and a {@code java.time} parse, about 7 % of a consumer thread's CPU in the traffic
 * benchmark (bench/TrafficBench.md).
 */
final class SchemaFormats {

    private SchemaFormats() {
    }

    static Dialect draft202012() {
        Dialect base = Dialects.getDraft202012();
        return Dialect.builder(base).formats((Map<String, Format> formats) -> {
            formats.put("uuid", new Quicker(formats.get("uuid"), SchemaFormats::isCanonicalUuid));
            formats.put("date-time", new Quicker(formats.get("date-time"), value -> RecordInstants.parse(value) != null));
        }).build();
    }

    /** 8-4-4-4-12 hexadecimal digits, either case, nothing before or after. */
    static boolean isCanonicalUuid(String value) {
        if (value.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = value.charAt(i);
            boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
            if (dash ? c != '-' : !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                return false;
            }
        }
        return true;
    }

    /** A format whose quick check decides what it accepts; the rest goes to the original format. */
    record Quicker(Format original, Predicate<String> accepts) implements Format {

        Quicker {
            if (original == null) {
                throw new IllegalStateException("networknt's dialect lacks a format this platform speeds up");
            }
        }

        @Override
        public String getName() {
            return original.getName();
        }

        @Override
        public String getMessageKey() {
            return original.getMessageKey();
        }

        @Override
        public boolean matches(ExecutionContext context, String value) {
            return accepts.test(value) || original.matches(context, value);
        }
    }
}

package dev.visibility.platform.db;

import java.util.UUID;

/**
 * PostgreSQL array literals ({@code {a,b,NULL}}) of a statement's array parameters, bound as one text
 * and cast in the statement ({@code :keys::uuid[]}): R2DBC's own array encoding writes a parameter
 * element by element into its buffer (with a reference-count check per byte written), which for the
 * thousands of elements of a batch statement cost more than building the text (it was 7 % of the
 * ingesting JVM's samples, bench/TrafficBench.md). PostgreSQL parses the text as it parses R2DBC's.
 */
public final class ArrayLiterals {

    private ArrayLiterals() {
    }

    public static String uuids(UUID[] values) {
        StringBuilder text = new StringBuilder(2 + values.length * 37);
        text.append('{');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(values[i] == null ? "NULL" : values[i].toString());
        }
        return text.append('}').toString();
    }

    /** Numbers (int, long) or NULL. */
    public static String numbers(Number[] values) {
        StringBuilder text = new StringBuilder(2 + values.length * 8);
        text.append('{');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            if (values[i] == null) {
                text.append("NULL");
            } else {
                text.append(values[i].longValue());
            }
        }
        return text.append('}').toString();
    }

    /** Texts, each quoted (with its backslashes and double quotes escaped), or NULL. */
    public static String texts(String[] values) {
        StringBuilder text = new StringBuilder(2 + values.length * 16);
        text.append('{');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            String value = values[i];
            if (value == null) {
                text.append("NULL");
                continue;
            }
            text.append('"');
            for (int c = 0; c < value.length(); c++) {
                char ch = value.charAt(c);
                if (ch == '"' || ch == '\\') {
                    text.append('\\');
                }
                text.append(ch);
            }
            text.append('"');
        }
        return text.append('}').toString();
    }
}

package dev.visibility.platform.db;

import java.util.UUID;
import java.util.function.BiConsumer;

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
        return literal(values, 37, (text, value) -> text.append(value.toString()));
    }

    /** Numbers (int, long) or NULL. */
    public static String numbers(Number[] values) {
        return literal(values, 8, (text, value) -> text.append(value.longValue()));
    }

    /** Texts, each quoted (with its backslashes and double quotes escaped), or NULL. */
    public static String texts(String[] values) {
        return literal(values, 16, ArrayLiterals::quoted);
    }

    private static <T> String literal(T[] values, int width, BiConsumer<StringBuilder, T> element) {
        StringBuilder text = new StringBuilder(2 + values.length * width);
        text.append('{');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            if (values[i] == null) {
                text.append("NULL");
            } else {
                element.accept(text, values[i]);
            }
        }
        return text.append('}').toString();
    }

    private static void quoted(StringBuilder text, String value) {
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
}

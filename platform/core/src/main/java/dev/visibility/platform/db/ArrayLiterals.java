package dev.visibility.platform.db;

import java.util.UUID;

/**
 * PostgreSQL array literals ({@code {a,b,NULL}}) of a statement's array parameters, bound as one text
 * and cast in the statement ({@code :keys::uuid[]}): R2DBC's own array encoding writes a parameter
 * element by element into its buffer (with a reference-count check per byte written), which for the
 * thousands of elements of a batch statement cost more than building the text (it was 7 % of the
 * ingesting JVM's samples, bench/TrafficBench.md). PostgreSQL parses the text as it parses R2DBC's.
 *
 * <p>A statement built from a map writes its columns with {@link Column} as it walks the map, without
 * an array of boxed values first; {@link #uuids}, {@link #numbers} and {@link #texts} take arrays.
 */
public final class ArrayLiterals {

    private ArrayLiterals() {
    }

    public static String uuids(UUID[] values) {
        Column column = new Column(values.length, 37);
        for (UUID value : values) {
            column.uuid(value);
        }
        return column.literal();
    }

    /** Numbers (int, long) or NULL. */
    public static String numbers(Number[] values) {
        Column column = new Column(values.length, 8);
        for (Number value : values) {
            if (value == null) {
                column.none();
            } else {
                column.number(value.longValue());
            }
        }
        return column.literal();
    }

    /** Texts, each quoted (with its backslashes and double quotes escaped), or NULL. */
    public static String texts(String[] values) {
        Column column = new Column(values.length, 16);
        for (String value : values) {
            column.text(value);
        }
        return column.literal();
    }

    /** One array literal written element by element: {@code uuid}, {@code number}, {@code text} or {@code none} (NULL). */
    public static final class Column {

        private final StringBuilder text;

        /** For about {@code elements} elements of about {@code width} characters each. */
        public Column(int elements, int width) {
            text = new StringBuilder(2 + elements * (width + 1)).append('{');
        }

        public Column uuid(UUID value) {
            if (value == null) {
                return none();
            }
            next().append(value.toString());
            return this;
        }

        public Column number(long value) {
            next().append(value);
            return this;
        }

        /** A text, quoted, with its backslashes and double quotes escaped; NULL for null. */
        public Column text(String value) {
            if (value == null) {
                return none();
            }
            StringBuilder out = next().append('"');
            if (value.indexOf('"') < 0 && value.indexOf('\\') < 0) {
                // the usual text, nothing to escape: copied at once rather than a character at a time
                out.append(value);
            } else {
                for (int c = 0; c < value.length(); c++) {
                    char ch = value.charAt(c);
                    if (ch == '"' || ch == '\\') {
                        out.append('\\');
                    }
                    out.append(ch);
                }
            }
            out.append('"');
            return this;
        }

        /** NULL. */
        public Column none() {
            next().append("NULL");
            return this;
        }

        /** The literal of the elements written so far. */
        public String literal() {
            return text + "}";
        }

        private StringBuilder next() {
            if (text.length() > 1) {
                text.append(',');
            }
            return text;
        }
    }
}

package io.strata.meta;

import java.util.Comparator;

/** The order of names in a directory, the same in every engine. */
public final class Names {
    /**
     * Unicode code point order: equal to UTF-8 byte order, which SQLite's BINARY and PostgreSQL's
     * "C" collations give, unlike {@link String#compareTo} (UTF-16 units) for characters outside
     * the BMP. One order everywhere keeps readdir paging and dumps identical across engines.
     */
    public static final Comparator<String> ORDER = Names::compareCodePoints;

    private Names() {}

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }
}

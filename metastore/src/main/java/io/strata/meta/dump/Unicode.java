package io.strata.meta.dump;

/**
 * Which strings an engine that stores UTF-8 can keep. Java strings may hold unpaired surrogates,
 * which a dump carries (as JSON escapes) but which no UTF-8 encoding can: an engine that stores
 * UTF-8 refuses them on load rather than store a changed name.
 */
public final class Unicode {
    private Unicode() {}

    /** Whether every surrogate in {@code s} is half of a pair, so that UTF-8 holds it exactly. */
    public static boolean isWellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** {@code s} with its control characters and unpaired surrogates as \\u escapes, for messages. */
    public static String printable(String s) {
        return DumpReader.printable(s);
    }
}

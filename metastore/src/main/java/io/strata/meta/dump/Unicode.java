package io.strata.meta.dump;

/**
 * A volume's names as Unicode. Which strings an engine that stores UTF-8 can keep: Java strings may
 * hold unpaired surrogates, which a dump carries (as JSON escapes) but which no UTF-8 encoding can,
 * so such an engine refuses them on load rather than store a changed name. And how any name is
 * shown in a message without its control characters reaching the terminal.
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

    /** {@code text} with its control characters and unpaired surrogates as \\u escapes, safe for a terminal. */
    public static String printable(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean unpaired = Character.isSurrogate(c) && !(Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1)));
            if (Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1))) {
                unpaired = false;
            }
            if (Character.isISOControl(c) || unpaired) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 8).append(text, 0, i);
                }
                out.append(String.format("\\u%04x", (int) c));
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }
}

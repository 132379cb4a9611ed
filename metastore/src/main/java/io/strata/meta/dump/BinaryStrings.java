package io.strata.meta.dump;

/**
 * Strings in a binary dump. Smile stores strings as UTF-8, which cannot hold an unpaired
 * surrogate, and Java strings (the memory engine's names, xattr names, symlink targets) may have
 * one; JSON carries them as \\u escapes. So a binary dump writes a string that is not well-formed,
 * or that starts with U+0000 (to keep the rule unambiguous), as U+0000 followed by its UTF-16 code
 * units as 4 lowercase hex digits each: "\uD800x" is written "\u0000d8000078". Every other string,
 * which is nearly all of them, is written as it is.
 */
final class BinaryStrings {
    static final char ESCAPE = '\0';

    private BinaryStrings() {}

    static String escape(String s) {
        if ((s.isEmpty() || s.charAt(0) != ESCAPE) && Unicode.isWellFormed(s)) {
            return s;
        }
        StringBuilder out = new StringBuilder(1 + 4 * s.length()).append(ESCAPE);
        for (int i = 0; i < s.length(); i++) {
            String hex = Integer.toHexString(s.charAt(i));
            out.append("0000", hex.length(), 4).append(hex);
        }
        return out.toString();
    }

    /**
     * The string {@link #escape} was given, or null if {@code s} starts with the escape but is not
     * what escape writes (lowercase hex, only for a string that needs it): one string, one encoding.
     */
    static String unescape(String s) {
        if (s.isEmpty() || s.charAt(0) != ESCAPE) {
            return s;
        }
        if ((s.length() - 1) % 4 != 0) {
            return null;
        }
        char[] chars = new char[(s.length() - 1) / 4];
        for (int i = 0; i < chars.length; i++) {
            int unit = 0;
            for (int j = 1 + 4 * i; j < 5 + 4 * i; j++) {
                char c = s.charAt(j);
                int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
                if (digit < 0) {
                    return null;
                }
                unit = unit * 16 + digit;
            }
            chars[i] = (char) unit;
        }
        String original = new String(chars);
        return escape(original).equals(s) ? original : null;
    }
}

package io.strata.meta.dump;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import static io.strata.meta.dump.Unicode.printable;

/**
 * A dump's parser with every read checked: each method takes the token the format says comes
 * next, or throws a {@link MalformedDumpException} that says what was expected, what was found,
 * and where (the byte offset, and the directory {@code context} names). Names and values come back
 * as the volume had them: a binary dump's strings are unescaped here ({@link BinaryStrings}).
 */
final class DumpTokens {
    private final JsonParser json;
    private final boolean binary;
    private final Supplier<String> context;

    /** @param context where the reader is, appended to every message ("" at the top) */
    DumpTokens(JsonParser json, boolean binary, Supplier<String> context) {
        this.json = json;
        this.binary = binary;
        this.context = context;
    }

    JsonToken next() throws IOException {
        return json.nextToken();
    }

    /** The current member's name, as the volume had it. */
    String memberName() throws IOException {
        return text(json.currentName());
    }

    /** The bytes of an xattr's value: embedded in a binary dump, base64 text in JSON. */
    byte[] xattrValue(String name) throws IOException {
        JsonToken value = json.nextToken();
        if (value != (binary ? JsonToken.VALUE_EMBEDDED_OBJECT : JsonToken.VALUE_STRING)) {
            throw malformed("expected the " + (binary ? "bytes" : "base64 value") + " of xattr \""
                    + printable(name) + "\", found " + found());
        }
        return json.getBinaryValue(Base64Variants.MIME_NO_LINEFEEDS);
    }

    void expect(JsonToken expected, String what) throws IOException {
        if (json.nextToken() != expected) {
            throw malformed("expected " + what + ", found " + found());
        }
    }

    /** The next member, which must be {@code name}. */
    void field(String name) throws IOException {
        JsonToken token = json.nextToken();
        if (token != JsonToken.FIELD_NAME || !name.equals(json.currentName())) {
            throw malformed("expected \"" + name + "\", found " + found());
        }
    }

    /** The name of the next member, or null at the end of the object. */
    String nextMember() throws IOException {
        JsonToken token = json.nextToken();
        if (token == JsonToken.END_OBJECT) {
            return null;
        }
        if (token != JsonToken.FIELD_NAME) {
            throw malformed("expected a member or '}', found " + found());
        }
        return json.currentName();
    }

    String string(String field) throws IOException {
        if (json.nextToken() != JsonToken.VALUE_STRING) {
            throw malformed("expected a string for \"" + field + "\", found " + found());
        }
        return text(json.getText());
    }

    /** A name or value from the volume, as the encoding carries it ({@link BinaryStrings}). */
    private String text(String s) throws MalformedDumpException {
        if (!binary) {
            return s;
        }
        String text = BinaryStrings.unescape(s);
        if (text == null) {
            throw malformed("\"" + printable(abbreviate(s)) + "\" starts with U+0000 but is not an escaped string"
                    + " (U+0000 and 4 lowercase hex digits per UTF-16 unit, only where needed)");
        }
        return text;
    }

    long number(String field) throws IOException {
        if (json.nextToken() != JsonToken.VALUE_NUMBER_INT) {
            throw malformed("expected a whole number for \"" + field + "\", found " + found());
        }
        return json.getLongValue();
    }

    int integer(String field) throws IOException {
        if (json.nextToken() != JsonToken.VALUE_NUMBER_INT) {
            throw malformed("expected a whole number for \"" + field + "\", found " + found());
        }
        return json.getIntValue();
    }

    boolean bool(String field) throws IOException {
        JsonToken token = json.nextToken();
        if (token != JsonToken.VALUE_TRUE && token != JsonToken.VALUE_FALSE) {
            throw malformed("expected true or false for \"" + field + "\", found " + found());
        }
        return token == JsonToken.VALUE_TRUE;
    }

    Map<String, String> stringMap(String field) throws IOException {
        expect(JsonToken.START_OBJECT, "an object for \"" + field + "\"");
        Map<String, String> map = new TreeMap<>();
        for (JsonToken token = json.nextToken(); token != JsonToken.END_OBJECT; token = json.nextToken()) {
            if (token != JsonToken.FIELD_NAME) {
                throw malformed("expected a key or '}' in \"" + field + "\", found " + found());
            }
            String key = text(json.currentName());
            if (map.put(key, string(key)) != null) {
                throw malformed("\"" + printable(key) + "\" appears twice in \"" + field + "\"");
            }
        }
        return map;
    }

    List<String> stringList(String field) throws IOException {
        expect(JsonToken.START_ARRAY, "an array for \"" + field + "\"");
        List<String> list = new ArrayList<>();
        for (JsonToken token = json.nextToken(); token != JsonToken.END_ARRAY; token = json.nextToken()) {
            if (token != JsonToken.VALUE_STRING) {
                throw malformed("expected a string or ']' in \"" + field + "\", found " + found());
            }
            list.add(text(json.getText()));
        }
        return list;
    }

    /** What the current token is, for "expected X, found Y". */
    String found() throws IOException {
        JsonToken token = json.currentToken();
        if (token == null) {
            return "the end of the input: the dump is truncated";
        }
        return switch (token) {
            case START_OBJECT -> "'{'";
            case END_OBJECT -> "'}'";
            case START_ARRAY -> "'['";
            case END_ARRAY -> "']'";
            case FIELD_NAME -> "\"" + printable(json.currentName()) + "\"";
            case VALUE_STRING -> "the string \"" + printable(abbreviate(json.getText())) + "\"";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "the number " + json.getText();
            case VALUE_TRUE, VALUE_FALSE -> token.asString();
            case VALUE_NULL -> "null";
            default -> token.toString();
        };
    }

    MalformedDumpException malformed(String problem) {
        return new MalformedDumpException(offset(), problem + context.get());
    }

    /** Where the current token starts, or where the parser is when there is none (the end of the input). */
    long offset() {
        long offset = json.currentTokenLocation().getByteOffset();
        return offset >= 0 ? offset : Math.max(0, json.currentLocation().getByteOffset());
    }

    MalformedDumpException malformed(StreamReadException e) {
        String message = e.getOriginalMessage();
        if (message.startsWith("Unexpected end-of-input")) {
            message = "the dump is truncated (" + message + ")";
        }
        long offset = e.getLocation() != null ? e.getLocation().getByteOffset() : -1;
        return new MalformedDumpException(offset, message + context.get(), e);
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}

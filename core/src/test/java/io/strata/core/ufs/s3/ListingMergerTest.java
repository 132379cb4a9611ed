package io.strata.core.ufs.s3;

import io.strata.core.ufs.UfsStatus;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ListingMergerTest {
    private final List<String> out = new ArrayList<>();
    private final ListingMerger merger = new ListingMerger(status -> out.add(
            status.name() + (status.directory() ? "/" : "")));

    @Test
    void aDirectoryHidesTheObjectOfItsNameEvenWithKeysBetweenThem() {
        merger.file(file("d"));
        merger.file(file("d-1"));
        merger.file(file("d.txt"));
        merger.directory(dir("d"));
        merger.file(file("e"));
        merger.finish();
        assertEquals(List.of("d-1", "d.txt", "d/", "e"), out);
    }

    @Test
    void filesAreReleasedAsSoonAsNoDirectoryCanFollow() {
        merger.file(file("a"));
        merger.file(file("b"));
        assertEquals(List.of("a"), out); // "b" > "a/": no directory "a" can come any more
        merger.directory(dir("c"));
        assertEquals(List.of("a", "b", "c/"), out);
    }

    @Test
    void theSameDirectoryTwiceInARowIsListedOnce() {
        merger.directory(dir("d"));
        merger.directory(dir("d"));
        merger.finish();
        assertEquals(List.of("d/"), out);
    }

    @Test
    void keyOrderIsCodePointOrderNotUtf16Order() {
        // U+FF5E (one UTF-16 unit) sorts before U+1F600 (a surrogate pair) in UTF-8, after it in UTF-16.
        assertTrue(ListingMerger.compareCodePoints("\uFF5E", "\uD83D\uDE00") < 0);
        assertTrue("\uFF5E".compareTo("\uD83D\uDE00") > 0);
        assertTrue(ListingMerger.compareCodePoints("a", "a/") < 0);
        assertEquals(0, ListingMerger.compareCodePoints("x", "x"));
    }

    private static UfsStatus file(String name) {
        return new UfsStatus(name, false, 1, 0, -1, -1, -1, "etag");
    }

    private static UfsStatus dir(String name) {
        return new UfsStatus(name, true, 0, 0, -1, -1, -1, null);
    }
}

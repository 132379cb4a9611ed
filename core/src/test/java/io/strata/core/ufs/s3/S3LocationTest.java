package io.strata.core.ufs.s3;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.UnderFileSystems;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class S3LocationTest {
    @Test
    void bucketAndPrefixAreParsedAndNormalized() throws FsException {
        S3Location location = S3Location.parse(URI.create("s3://my-bucket/data/set/"));
        assertEquals("my-bucket", location.bucket());
        assertEquals("data/set", location.prefix());
        assertEquals(URI.create("s3://my-bucket/data/set"), location.uri());
        assertEquals("data/set/a/b", location.key("a/b"));
        assertEquals("data/set", location.key(""));
        assertEquals("data/set/", location.childPrefix(""));
        assertEquals("data/set/a/", location.childPrefix("a"));
        assertEquals("a/b", location.path("data/set/a/b"));
    }

    @Test
    void aWholeBucketHasAnEmptyPrefix() throws FsException {
        S3Location location = S3Location.parse(URI.create("s3://bucket/"));
        assertEquals("", location.prefix());
        assertEquals(URI.create("s3://bucket"), location.uri());
        assertEquals("", location.childPrefix(""));
        assertEquals("a/", location.childPrefix("a"));
        assertEquals("a", location.key("a"));
    }

    @Test
    void escapedCharactersInThePrefixAreDecodedAndRoundTrip() {
        S3Location location = S3Location.parse(URI.create("s3://bucket/my%20data"));
        assertEquals("my data", location.prefix());
        assertEquals(location, S3Location.parse(location.uri()));
        assertEquals(location.uri(), UnderFileSystems.toUri("s3://bucket/my%20data/"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"s3:bucket", "s3://b", "s3://bucket:9000/x", "s3://bucket/a//b", "s3://bucket/./a",
            "s3://bucket/a/..", "s3://bucket/x?versionId=1", "s3://bucket/x#frag", "s3:///path"})
    void malformedUrisAreRejectedNamingTheForm(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> S3Location.parse(URI.create(text)));
        assertTrue(e.getMessage().startsWith("bad S3 URI"), e.getMessage());
    }

    @Test
    void credentialsInTheUriAreRefusedWithoutRepeatingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> S3Location.parse(URI.create("s3://AKIAEXAMPLE:wJalrXUtnFEMI@bucket/prefix")));
        assertFalse(e.getMessage().contains("AKIAEXAMPLE"), e.getMessage());
        assertFalse(e.getMessage().contains("wJalrXUtnFEMI"), e.getMessage());
        assertTrue(e.getMessage().contains("s3a.accessKeyId"), e.getMessage());
    }

    @Test
    void volumePathsCannotLeaveTheRootOrExceedTheKeyLimit() {
        S3Location location = S3Location.parse(URI.create("s3://bucket/p"));
        assertThrows(IllegalArgumentException.class, () -> location.key("../x"));
        assertThrows(IllegalArgumentException.class, () -> location.key("/x"));
        assertThrows(IllegalArgumentException.class, () -> location.key("a//b"));
        FsException e = assertThrows(FsException.class, () -> location.key("x".repeat(1100)));
        assertEquals(FsError.ENAMETOOLONG, e.error());
    }
}

package io.strata.core.ufs;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import io.strata.core.ufs.local.LocalUnderFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UnderFileSystemsTest {
    @TempDir
    Path dir;

    @Test
    void fileUriOpensALocalDirectory() throws IOException {
        try (UnderFileSystem ufs = UnderFileSystems.open(dir.toUri())) {
            LocalUnderFileSystem local = assertInstanceOf(LocalUnderFileSystem.class, ufs);
            assertEquals(dir, local.root());
            assertEquals(UnderFileSystems.toUri(dir.toString()), ufs.uri());
        }
    }

    @Test
    void fileUriWithLocalhostIsLocal() throws IOException {
        try (UnderFileSystem ufs = UnderFileSystems.open(URI.create("file://localhost" + dir.toUri().getRawPath()))) {
            assertEquals(dir, ((LocalUnderFileSystem) ufs).root());
        }
    }

    @Test
    void missingDirectoryFailsWithEnoent() {
        FsException e = assertThrows(FsException.class, () -> UnderFileSystems.open(dir.resolve("missing").toUri()));
        assertEquals(FsError.ENOENT, e.error());
    }

    @Test
    void otherSchemesAreRejectedNamingTheUriAndWhatToUse() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UnderFileSystems.open(URI.create("hdfs://namenode/data")));
        assertEquals("unsupported under storage 'hdfs://namenode/data': use a local directory (file:///path)"
                + " or an S3 bucket (s3://bucket/prefix)", e.getMessage());
    }

    @Test
    void credentialsInARejectedUriAreMasked() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UnderFileSystems.open(URI.create("hdfs://AKIAEXAMPLE:wJalrXUtnFEMI@namenode/prefix")));
        assertFalse(e.getMessage().contains("wJalrXUtnFEMI"), e.getMessage());
        assertFalse(e.getMessage().contains("AKIAEXAMPLE"), e.getMessage());
        assertTrue(e.getMessage().contains("hdfs://****@namenode/prefix"), e.getMessage());
    }

    @Test
    void credentialsInAnS3UriAreRefusedWithoutBeingRepeated() {
        for (String text : new String[] {"s3://AKIAEXAMPLE:wJalrXUtnFEMI@bucket/prefix"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> UnderFileSystems.open(URI.create(text)));
            assertFalse(e.getMessage().contains("wJalrXUtnFEMI"), e.getMessage());
            assertFalse(e.getMessage().contains("AKIAEXAMPLE"), e.getMessage());
            assertTrue(e.getMessage().contains("s3a.accessKeyId"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> UnderFileSystems.toUri(text));
        }
    }

    @Test
    void fileUriOnAnotherHostIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> UnderFileSystems.open(URI.create("file://server/data")));
        assertThrows(IllegalArgumentException.class, () -> UnderFileSystems.toUri("file://server/data"));
    }

    @Test
    void absolutePathBecomesAFileUriWithoutTrailingSlash() {
        assertEquals(URI.create("file:///data/src"), UnderFileSystems.toUri("/data/src"));
        assertEquals(URI.create("file:///data/src"), UnderFileSystems.toUri("/data/src/"));
        assertEquals(URI.create("file:///data/src"), UnderFileSystems.toUri("/data/./x/../src//"));
        assertEquals(URI.create("file:///"), UnderFileSystems.toUri("/"));
    }

    @Test
    void relativePathIsResolvedAgainstTheWorkingDirectory() {
        Path expected = Path.of(System.getProperty("user.dir")).resolve("data/src").normalize();
        assertEquals(LocalUnderFileSystem.uriOf(expected), UnderFileSystems.toUri("data/src"));
        assertEquals(LocalUnderFileSystem.uriOf(expected), UnderFileSystems.toUri("./data/x/../src/"));
    }

    @Test
    void fileUrisAreNormalized() {
        assertEquals(URI.create("file:///data/src"), UnderFileSystems.toUri("file:///data/src/"));
        assertEquals(URI.create("file:///data/src"), UnderFileSystems.toUri("file:/data/src"));
        assertEquals(URI.create("file:///data/src"), UnderFileSystems.toUri("FILE:///data/a/../src"));
        assertEquals(URI.create("file:///data/src"), UnderFileSystems.toUri("file://localhost/data/src"));
    }

    @Test
    void specialCharactersSurviveThePathToUriRoundTrip() throws IOException {
        Path odd = Files.createDirectory(dir.resolve("my dir %20 #1"));
        URI uri = UnderFileSystems.toUri(odd.toString());
        assertEquals(uri, UnderFileSystems.toUri(uri.toString()));
        try (UnderFileSystem ufs = UnderFileSystems.open(uri)) {
            assertEquals(odd, ((LocalUnderFileSystem) ufs).root());
            assertEquals(uri, ufs.uri());
        }
    }

    @Test
    void pathsWithAColonAreNotMistakenForUris() {
        Path expected = Path.of(System.getProperty("user.dir")).resolve("a:b");
        assertEquals(LocalUnderFileSystem.uriOf(expected), UnderFileSystems.toUri("a:b"));
    }

    @Test
    void otherSchemesArePassedThroughForOpenToJudge() {
        assertEquals(URI.create("hdfs://namenode/data/"), UnderFileSystems.toUri("hdfs://namenode/data/"));
    }

    @Test
    void s3UrisAreCheckedAndNormalized() {
        assertEquals(URI.create("s3://bucket/prefix"), UnderFileSystems.toUri("s3://bucket/prefix"));
        assertEquals(URI.create("s3://bucket/prefix"), UnderFileSystems.toUri("s3://bucket/prefix/"));
        assertEquals(URI.create("s3://bucket"), UnderFileSystems.toUri("s3://bucket/"));
        assertThrows(IllegalArgumentException.class, () -> UnderFileSystems.toUri("s3://bucket/a//b"));
        assertThrows(IllegalArgumentException.class, () -> UnderFileSystems.toUri("s3://x"));
    }

    @Test
    void badSourcesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> UnderFileSystems.toUri(""));
        assertThrows(IllegalArgumentException.class, () -> UnderFileSystems.toUri("  "));
        assertThrows(IllegalArgumentException.class, () -> UnderFileSystems.toUri("file:relative/path"));
        assertThrows(IllegalArgumentException.class, () -> UnderFileSystems.toUri("file:///data?x=1"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UnderFileSystems.toUri("file:///my dir"));
        assertTrue(e.getMessage().contains("%20"), e.getMessage());
    }
}

package io.strata.core.ufs.local;

import io.strata.core.ufs.AbstractUnderFileSystemTest;
import io.strata.core.ufs.UnderFileSystem;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/** The conformance suite over a temporary directory; local-only claims are in {@link LocalUnderFileSystemSemanticsTest}. */
class LocalUnderFileSystemTest extends AbstractUnderFileSystemTest {
    @TempDir
    Path root;

    @Override
    protected UnderFileSystem createUfs() throws IOException {
        return new LocalUnderFileSystem(root);
    }
}

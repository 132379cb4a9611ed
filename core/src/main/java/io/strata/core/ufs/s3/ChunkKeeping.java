package io.strata.core.ufs.s3;

import java.nio.ByteBuffer;

/**
 * A body subscriber that can keep a chunk's memory as its own instead of copying it: a ranged GET's
 * whole body, delivered by the CRT in one buffer, becomes the fetched range's blocks. On a cold read
 * of a 1 GiB object that is a copy and an allocation less per byte (docs/PERFORMANCE.md).
 */
interface ChunkKeeping {
    /**
     * Keeps {@code chunk}'s remaining bytes if it can, taking over its memory (an array made for
     * this chunk), which the sender never touches again; false to have the chunk sent to
     * {@code onNext} as any other.
     */
    boolean keep(ByteBuffer chunk);

    /**
     * Keeps {@code chunk}'s remaining bytes if it can, in memory the sender lends until
     * {@code giveBack} runs: the subscriber runs it once nothing reads the bytes any more. False
     * to have the chunk sent to {@code onNext} as any other; the memory stays the sender's.
     */
    boolean keepLent(ByteBuffer chunk, Runnable giveBack);
}

package io.strata.core.ufs.s3;

/**
 * A GET's response transformer whose body subscriber requests the whole body at once and has taken
 * each chunk's bytes by the time its {@code onNext} returns. A client may then hand it buffers that
 * are its own again after the call ({@link CrtObjectClient} passes each chunk as the CRT gives it
 * rather than a copy of its own, which saves a copy and an allocation per chunk: on a cold 1 GiB
 * read, ~0.5 s and ~40 MB of peak RSS).
 */
interface ChunkCopying {
    /** True if the body's chunks are copied within {@code onNext}. */
    boolean copiesChunks();
}

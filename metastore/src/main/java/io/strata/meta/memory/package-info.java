/**
 * The in-memory metastore engine ({@code memory://}): the whole namespace in heap maps behind one
 * read-write lock, for tests, benchmarks and throwaway mounts. Nothing survives {@code close()}.
 *
 * <p>{@link io.strata.meta.memory.MemoryMetaStore} is the engine; each inode is a
 * {@code MemoryNode} holding its attributes, its names, its xattrs and, for a directory, its
 * entries in a sorted map.
 */
package io.strata.meta.memory;

/**
 * {@code strata fsck}: checks a volume's namespace invariants, and repairs what it can safely.
 *
 * <p>{@link io.strata.meta.fsck.Fsck} runs a check: {@code TreeCheck} walks the tree over the
 * engine's {@link io.strata.meta.dump.DumpSource} (the dump's engine-neutral reader) and checks
 * entries, link counts and primary links, and with {@code UfsCheck} each file against the under
 * storage; then the engine's {@link io.strata.meta.fsck.FsckTarget} scans every inode for the ones
 * no name reaches, and the counters are compared with the sums. Each {@link
 * io.strata.meta.fsck.Problem} says what is wrong and what a repair does; a {@code Finding} pairs
 * it with the change, applied through the same {@code FsckTarget}, which each engine implements
 * in its own package ({@code MemoryFsck}, {@code SqlFsck}, ...) with a handful of raw writes.
 */
package io.strata.meta.fsck;

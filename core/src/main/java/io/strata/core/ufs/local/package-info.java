/**
 * The under storage over a local directory ({@code file:///path}), through java.nio.
 *
 * <p>{@link io.strata.core.ufs.local.LocalUnderFileSystem} maps the volume path {@code a/b} to
 * {@code <root>/a/b} and refuses paths that could leave the root ({@code ..}, {@code .}, a
 * leading '/', empty names) with an IllegalArgumentException. What it exposes:
 * <ul>
 *   <li>Regular files and directories only. Symbolic links and special files (fifos, sockets,
 *       devices) in the source directory are not exposed: {@code list} skips them, {@code status}
 *       reports them missing, {@code open} and {@code rename} fail with ENOENT, {@code create}
 *       with EEXIST, and deletes leave them alone. The last name of a path is never followed and
 *       links are never listed, so the namespace never leads through one out of the root.
 *       Symlinks of a mount are metastore entries, not files here. A directory holding only such entries looks empty yet fails rmdir with ENOTEMPTY.</li>
 *   <li>Status: size, mtime in nanoseconds, mode with setuid/setgid/sticky bits, numeric uid and
 *       gid (from the {@code unix} attribute view; see {@code LocalAttributes}), and the version
 *       {@code <size>-<mtimeNs>} for files.</li>
 *   <li>Writes through {@link io.strata.core.ufs.local.LocalUfsFile} always change the version
 *       (it nudges the mtime forward when the clock has not ticked), so pages cached under the
 *       old version are never served for new content. Changes by other programs are seen through
 *       size and mtime only.</li>
 *   <li>{@code rename} is one rename(2): atomic, whole trees at once, replacing a file at the
 *       target. {@code capacity} is the file store's total and usable bytes.</li>
 * </ul>
 * java.nio errors become {@link io.strata.core.fs.FsException}s with their POSIX error
 * ({@code LocalErrors}); names that are not valid in the platform's file name encoding are
 * whatever java.nio makes of them.
 */
package io.strata.core.ufs.local;

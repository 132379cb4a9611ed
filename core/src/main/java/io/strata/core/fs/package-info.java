/** Error vocabulary shared by every layer: POSIX errors as {@link io.strata.core.fs.FsException}. */
package io.strata.core.fs;

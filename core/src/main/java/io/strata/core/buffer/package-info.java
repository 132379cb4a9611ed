/**
 * Memory that someone else owns, lent to readers for as long as they hold it.
 *
 * <p>The S3 client receives a readahead part's body into a buffer of its own native pool
 * ({@code S3BorrowedBuffer}) and lends it until it is closed; using it afterwards reads memory the
 * pool has handed to another request, or memory no longer mapped. Its {@link
 * io.strata.core.concurrent.Holders} count who holds such a buffer (the readahead part, each page
 * of it being read, stored or waited for) and give it back when the last one lets go; a
 * {@link io.strata.core.buffer.LentBytes} is one holder's view of it. Bytes on the heap come in
 * the same wrapper with nothing to give back, so callers treat both alike.
 */
package io.strata.core.buffer;

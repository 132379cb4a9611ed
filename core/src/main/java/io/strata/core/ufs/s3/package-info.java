/**
 * The under storage over an S3 bucket prefix ({@code s3://bucket[/prefix]}). Requests go through
 * the AWS SDK v2's async client over Netty, and with {@code s3.client=crt} (the default) GETs,
 * small PUTs, upload parts, HEADs, listings and deletes through the AWS Common Runtime's S3 client
 * instead ({@link io.strata.core.ufs.s3.CrtReadsClient}, {@link io.strata.core.ufs.s3.CrtObjectClient});
 * the Netty client is then built when a multipart upload's start and end or a copy first needs it
 * ({@link io.strata.core.ufs.s3.DeferredS3AsyncClient}), so a session that sends none never builds it.
 *
 * <h2>Names</h2>
 * {@link io.strata.core.ufs.s3.S3Location} maps the volume path {@code a/b} to the key
 * {@code prefix/a/b}. A directory is a key prefix ({@code prefix/a/}); {@code mkdir} writes its
 * marker, the empty object {@code prefix/a/}, so an empty directory exists; a listing never shows
 * a directory's marker as an entry of itself. When the last key under a directory goes (delete or
 * rename), its marker is written, so a directory the namespace still has stays in S3; a delete
 * looks for that with a listing, and a mkdir checks that its parent is a directory, except in a
 * directory whose marker it knows of ({@link io.strata.core.ufs.s3.DirectoryMarkers}).
 * {@link io.strata.core.ufs.s3.S3UnderFileSystem#list} is ListObjectsV2 with delimiter '/', one
 * page of 1,000 in the sink's hands while the next is fetched; objects are files (size,
 * LastModified, and the ETag as version), common prefixes directories (listed with the time of
 * the listing: S3 keeps none). A directory hides an object of the same name
 * ({@link io.strata.core.ufs.s3.ListingMerger}); names a file system cannot hold ("", ".", "..")
 * are skipped. {@code status} asks HEAD and a one-key listing at once.
 *
 * <h2>Reads</h2>
 * {@link io.strata.core.ufs.s3.S3UfsFile#read} of an object as it is in S3 goes through the
 * volume's readahead engine ({@link io.strata.core.readahead}): the open object has a
 * {@code Prefetcher} over ranged GETs conditional on the ETag seen at open ({@code If-Match}), made
 * at its first read and closed whenever its key, version or mode changes. Bytes fetched or read
 * ahead are all of that version; a part not fetched yet when the object was replaced fails its
 * read (EIO) rather than mixing versions. A GET is received straight into the 1 MiB blocks of a
 * {@code FetchedRange} of its length ({@link io.strata.core.ufs.s3.RangeBody}), which the page
 * cache takes pages from without copying; the SDK retries a failed or truncated transfer
 * as a whole; a body shorter than its Content-Length is an error, never a short read. Local files
 * have no such engine: the kernel reads ahead of them.
 *
 * <h2>Writes: three modes of an open file</h2>
 * <ul>
 *   <li><b>REMOTE</b>: an object as it is in S3 (every file opened, and a new file after its
 *       upload); nothing local.</li>
 *   <li><b>STREAMING</b> ({@link io.strata.core.ufs.s3.StreamingUpload}): a created file (or an
 *       opened one truncated to 0, as {@code open(O_TRUNC)} does) written front to back is
 *       uploaded while it is written: a multipart upload whose parts grow with the file
 *       ({@link io.strata.core.ufs.s3.PartSizes}: {@code s3.part_size}, doubled every 500 parts, so
 *       5 TiB fit in 10,000 parts), at most {@code s3.upload_concurrency} parts in flight
 *       (the writer waits beyond that: memory per file is bounded, not per file size). Writes may
 *       go back within the part still in memory. A truncate or fallocate past the bytes written
 *       (fio and databases size a file before writing it) only records a zero tail, which the
 *       writes continuing the stream overwrite and the finish sends as zeros where they did not.
 *       A file that never fills a part is one PutObject at flush. Nothing is visible in the
 *       bucket before flush/fsync/close.</li>
 *   <li><b>STAGED</b> ({@link io.strata.core.ufs.s3.StagedFile}): any other write (before the part
 *       in memory, or to an opened object) switches the file to a local copy in
 *       {@code s3.staging_dir}: the buffered bytes if nothing was uploaded yet, else the object,
 *       fetched once (a streaming upload is completed first, since S3 cannot read an unfinished
 *       one). Reads and writes then go to the copy, positional and concurrent; flush/fsync/close
 *       upload it whole (PutObject, or parts from file ranges) and it stays for later changes
 *       until close.</li>
 * </ul>
 * {@code force()}, {@code version()} (the client calls it at flush to record the new ETag) and
 * {@code close()} upload what changed. A failed upload (after the SDK's retries) is an
 * IOException from them, which the FUSE layer returns as EIO from fsync, flush or close; the data
 * is kept: a staged copy stays in the staging directory (after a failed close too, logged with
 * its path), a streaming upload keeps its failed parts in memory and uploads them again at the
 * next flush, and writes after a failed part fail. Appending to an object after it was uploaded
 * (a log written and fsynced repeatedly) stages it, so each later fsync uploads it whole: S3 has
 * no append.
 *
 * <h2>Open handles and renames</h2>
 * The storage keeps a table of open files by key. {@code rename} first uploads their pending
 * writes, then copies (CopyObject, UploadPartCopy parts above 5 GiB) and deletes, child by child
 * for a directory (each key deleted only once its copy exists), and re-points the handles to the
 * new key and ETag. {@code deleteFile} detaches handles of the key: they upload nothing more.
 *
 * <h2>Failures</h2>
 * {@link io.strata.core.ufs.s3.S3Clients}: the SDK's standard retry strategy retries throttling
 * (503 SlowDown), 5xx, connection resets and timeouts ({@code s3.connect_timeout},
 * {@code s3.socket_timeout} for a stalled transfer, {@code s3.request_timeout} per attempt) up to
 * {@code s3.max_attempts}, with exponential backoff and full jitter; there is no retry loop
 * here. {@link io.strata.core.ufs.s3.S3Errors} then maps NoSuchKey/404 to ENOENT, AccessDenied/403
 * to EACCES, EntityTooLarge to EFBIG, quota errors to ENOSPC, anything else to a plain
 * IOException (EIO). {@code s3.checksum=when_required} (the default) keeps the SDK from sending
 * {@code x-amz-checksum-*} headers that several S3-compatible stores (S3Proxy 2.6 among them)
 * reject; {@code when_supported} turns CRC checks on for AWS S3.
 *
 * <h2>Where the readahead engine plugs in</h2>
 * Under the page store (which asks {@code UfsFile.read} for whole pages, in order for a sequential
 * reader) and over {@link io.strata.core.ufs.s3.S3Objects#readRangeAsync}, the
 * {@code CompletableFuture<ByteBuffer>} ranged read the engine's fetcher calls. Bytes in flight are bounded by the engine's buffer
 * budget ({@code buffer_size}); the connection pool ({@code s3.max_connections}) bounds the GETs
 * on the wire.
 */
package io.strata.core.ufs.s3;

package io.strata.client;

/**
 * When opening a volume makes sure its under storage is there: building the S3 client and the
 * request that checks the bucket take ~1 s of a fresh JVM, run while the metastore and the page
 * cache open.
 */
public enum StorageCheck {
    /** The open waits for the storage and fails as it fails: a mount of a wrong bucket is refused at once. */
    AT_OPEN,
    /**
     * The open does not wait; the first operation that needs the storage does, and fails as
     * opening it failed. For Hadoop jobs, whose listings and stats the metastore answers: S3A
     * does not probe its bucket at initialize either.
     */
    AT_FIRST_USE
}

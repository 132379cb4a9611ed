/**
 * How files on local disks are written: habits the under storage (a local directory, S3's staging
 * files) and the page store share, each measured on the kernels Strata runs on.
 */
package io.strata.core.io;

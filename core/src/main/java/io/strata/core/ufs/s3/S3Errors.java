package io.strata.core.ufs.s3;

import io.strata.core.fs.FsError;
import io.strata.core.fs.FsException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Waits for SDK futures and turns their failures into {@link FsException}s where a POSIX error
 * applies, plain {@link IOException}s (EIO upstream) otherwise.
 *
 * <p>By the time a failure gets here the SDK has already retried what was worth retrying.
 * Messages name the operation and the volume path, and carry S3's error code, status and request
 * id; the SDK never puts credentials in them.
 */
public final class S3Errors {
    private S3Errors() {}

    /**
     * The future's value, or its failure translated; an interrupt is an InterruptedIOException.
     * Public for {@code strata objbench}, whose messages read like a mount's.
     */
    public static <T> T join(CompletableFuture<T> future, String what) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(what + ": interrupted");
        } catch (ExecutionException e) {
            throw translate(e.getCause(), what);
        } catch (CancellationException e) {
            throw new IOException(what + ": cancelled", e);
        }
    }

    /** {@code failure} as the IOException it stands for. */
    static IOException translate(Throwable failure, String what) {
        Throwable cause = unwrap(failure);
        if (cause instanceof IOException io) {
            return io instanceof FsException ? io : new IOException(what + ": " + io.getMessage(), io);
        }
        if (cause instanceof AwsServiceException service) {
            FsError error = errorOf(service);
            String message = what + ": " + describe(service);
            return error == null ? new IOException(message, service) : new FsException(error, message, service);
        }
        if (cause instanceof SdkException sdk) {
            String message = sdk.getMessage() == null ? sdk.toString() : sdk.getMessage();
            if (message.startsWith("Unable to load credentials")) {
                // The SDK's text lists every provider it tried, over many lines' worth: say what to do.
                return new FsException(FsError.EACCES, what + ": no S3 credentials found; set s3a.accessKeyId and"
                        + " s3a.secretKey (or STRATA_S3A_ACCESSKEYID/STRATA_S3A_SECRETKEY), AWS_ACCESS_KEY_ID and"
                        + " AWS_SECRET_ACCESS_KEY, or an ~/.aws profile", sdk);
            }
            return new IOException(what + ": " + message, sdk);
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new IOException(what + ": " + cause, cause);
    }

    /** The HTTP status of a service error, or 0 for anything else. */
    static int status(Throwable failure) {
        return unwrap(failure) instanceof AwsServiceException service ? service.statusCode() : 0;
    }

    /** S3's error code ("NoSuchKey", "SlowDown"...), or "" for anything but a service error. */
    static String code(Throwable failure) {
        if (unwrap(failure) instanceof AwsServiceException service && service.awsErrorDetails() != null
                && service.awsErrorDetails().errorCode() != null) {
            return service.awsErrorDetails().errorCode();
        }
        return "";
    }

    static boolean isNotFound(Throwable failure) {
        return status(failure) == 404;
    }

    static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static FsError errorOf(AwsServiceException e) {
        String code = e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null
                ? "" : e.awsErrorDetails().errorCode();
        switch (code) {
            case "NoSuchKey", "NoSuchBucket", "NoSuchUpload" -> {
                return FsError.ENOENT;
            }
            case "AccessDenied", "AllAccessDisabled", "InvalidAccessKeyId", "SignatureDoesNotMatch" -> {
                return FsError.EACCES;
            }
            case "EntityTooLarge" -> {
                return FsError.EFBIG;
            }
            case "KeyTooLongError" -> {
                return FsError.ENAMETOOLONG;
            }
            case "QuotaExceeded", "InsufficientStorage", "XMinioStorageFull" -> {
                return FsError.ENOSPC;
            }
            case "PreconditionFailed" -> {
                return FsError.ESTALE; // an If-Match GET: the object is no longer the version read
            }
            default -> {
                // HEAD responses have no body, so no code: go by the status.
            }
        }
        return switch (e.statusCode()) {
            case 404 -> FsError.ENOENT;
            case 403 -> FsError.EACCES;
            case 412 -> FsError.ESTALE;
            default -> null;
        };
    }

    private static String describe(AwsServiceException e) {
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        String message = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorMessage();
        StringBuilder text = new StringBuilder();
        text.append(code != null ? code : "HTTP " + e.statusCode());
        if (message != null && !message.isBlank()) {
            text.append(" (").append(message).append(')');
        }
        text.append(" [status ").append(e.statusCode());
        if (e.requestId() != null) {
            text.append(", request ").append(e.requestId());
        }
        text.append(']');
        if ("NotImplemented".equals(code)) {
            text.append("; if the store rejects checksum headers, mount with -o s3.checksum=when_required");
        }
        return text.toString();
    }
}

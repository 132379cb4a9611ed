package io.strata.client;

/** Who is asking: the user and group that own what a call creates. */
public record Caller(int uid, int gid) {
    public static final Caller ROOT = new Caller(0, 0);
}

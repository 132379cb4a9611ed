# Strata in a container: `strata mount SOURCE MOUNTPOINT --foreground` as PID 1, so `docker stop`
# (SIGTERM) flushes open files and unmounts before the container ends. README, "Containers and
# fstab", has the run line, a compose file and a Kubernetes sidecar.
#
#   docker build -t strata .
#   docker run --rm --device /dev/fuse --cap-add SYS_ADMIN --security-opt apparmor=unconfined \
#       -v strata-state:/var/lib/strata -e AWS_ACCESS_KEY_ID -e AWS_SECRET_ACCESS_KEY \
#       strata s3://bucket/prefix /mnt/strata
#
# Only Debian's packages are used (both stages start from Debian 12 slim), so the image builds
# where Debian's mirror is the only registry reachable: .ci/run makes the base image itself with
# debootstrap (integration-tests/docker/base-image.sh) and builds this file with podman.
# With BuildKit, `--mount=type=cache` below keeps the Maven repository between builds; podman
# builds in CI give it the host's instead (`podman build --volume ~/.m2:/root/.m2`, which wins).
# `--format docker` with podman: the OCI format has no HEALTHCHECK.

ARG BASE=debian:bookworm-slim

# What both stages need: the JRE, FUSE's tools (fusermount3 mounts for a non-root user; libfuse2
# is only for -o fuse=jnr) and CA certificates for HTTPS endpoints.
# A non-root user's mount must let other users in (a sidecar's mount is used by other containers'
# processes, root among them): -o allow_other needs user_allow_other in /etc/fuse.conf.
# (The JRE's post-install links its man page: slim images have no man directories.)
FROM ${BASE} AS base
RUN mkdir -p /usr/share/man/man1 \
    && apt-get update \
    && apt-get install -y --no-install-recommends openjdk-17-jre-headless fuse3 libfuse2 ca-certificates \
    && apt-get clean && rm -rf /var/lib/apt/lists/* \
    && echo user_allow_other >> /etc/fuse.conf

# The build: the JDK over the same JRE, then the CLI jar, as on a host.
FROM base AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends openjdk-17-jdk-headless \
    && apt-get clean && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q -DskipTests package -pl cli -am \
    && test -s cli/target/strata.jar

FROM base
# bin/strata finds the jar at $STRATA_HOME/cli/target/strata.jar and the option file at
# $STRATA_HOME/conf/strata.properties, as in a checkout.
COPY --from=build /src/cli/target/strata.jar /opt/strata/cli/target/strata.jar
COPY bin/strata bin/mount.fuse.strata bin/strata-healthcheck /opt/strata/bin/
COPY conf/strata.properties /opt/strata/conf/strata.properties

# A fixed uid, so a host directory handed to the container can be chowned to it beforehand.
# /var/lib/strata holds the default SQLite metastore, the page cache and the pid file; a volume
# there keeps the namespace across containers. /var/cache/strata holds the class-data sharing
# archive (below). /mnt/strata is the default mountpoint: fusermount3 mounts only on a directory
# its user may write. fusermount3 reads /etc/mtab, which a debootstrapped root lacks.
RUN useradd --uid 10001 --user-group --home-dir /var/lib/strata --shell /usr/sbin/nologin strata \
    && mkdir -p /var/lib/strata /var/cache/strata /mnt/strata \
    && chown strata:strata /var/lib/strata /var/cache/strata /mnt/strata \
    && ln -s /opt/strata/bin/strata /usr/local/bin/strata \
    && ln -s /opt/strata/bin/mount.fuse.strata /usr/sbin/mount.fuse.strata \
    && ln -sfn ../proc/self/mounts /etc/mtab

# No class-data sharing archive is baked in: bin/strata makes it from a real mount's session
# (an archive from a session without one lacks the mount's classes and starts slower than
# none: docs/PERFORMANCE.md), and a build step has no /dev/fuse to mount with. The first
# container's foreground mount writes it to the cache volume when it stops; later containers
# with the same volume start ~0.6 s faster.
ENV STRATA_HOME=/opt/strata \
    STRATA_CDS_DIR=/var/cache/strata/cds \
    STRATA_STATE_DIR=/var/lib/strata
VOLUME ["/var/lib/strata", "/var/cache/strata"]

# Non-root: the daemon mounts through the setuid fusermount3, which needs /dev/fuse and
# CAP_SYS_ADMIN in the container's bounding set (--cap-add SYS_ADMIN) and no no-new-privileges.
# Run as root (--user 0) where setuid helpers are not allowed: root mounts with mount(2) itself.
USER strata
WORKDIR /var/lib/strata

# SIGTERM reaches the JVM (or bin/strata, which passes it on while it records the archive);
# each unmounts after flushing. Give `docker stop` time for the flush of large files (-t).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/opt/strata/bin/strata", "mount", "--foreground"]
CMD ["/data", "/mnt/strata"]

# Healthy while a Strata (FUSE) file system is mounted at the mountpoint and answers a stat.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["/opt/strata/bin/strata-healthcheck"]

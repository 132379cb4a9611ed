#!/usr/bin/env bash
# Runs the Strata image as its runtime would and checks what its users rely on:
#   - the ENTRYPOINT (strata mount --foreground, PID 1, the image's user, env and working directory)
#     mounts a host directory; a file written through the mount is in the source, and back;
#   - with a shared bind (rshared: the Kubernetes sidecar / DaemonSet pattern) the host sees the
#     container's mount, and writes through it;
#   - the HEALTHCHECK passes while mounted and fails without a mount;
#   - SIGTERM to PID 1 flushes, unmounts (no stale mount on the host) and exits 0;
#   - a second container with the same state volume sees the same namespace (an xattr and a mode
#     that only the metastore holds).
#
# Where `podman run` works it is used. Where it does not (root without CAP_SYS_RESOURCE: the OCI
# runtime's setrlimit is refused), the image's root file system is exported (podman create +
# export) and its ENTRYPOINT started by hand in new mount and PID namespaces, chrooted, with
# /dev/fuse, the volumes, and the Env, User and WorkingDir from `podman inspect`.
#
#   integration-tests/docker/container-test.sh IMAGE     (root; exit 1 on the first failure)
set -euo pipefail

image="${1:?usage: container-test.sh IMAGE}"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "run as root"
[ -e /dev/fuse ] || fail "/dev/fuse is missing"

# /var/tmp rather than /tmp: the exported root file system needs setuid (fusermount3) and devices.
work="$(mktemp -d /var/tmp/strata-container.XXXXXX)"
root="$work/rootfs"
mkdir -p "$root" "$work/src" "$work/state" "$work/cache" "$work/shared"
uid=10001
chown "$uid:$uid" "$work/src" "$work/state" "$work/cache"

pid=""       # the container's PID 1, as the host sees it
launcher=""  # unshare, whose exit status is the container's (the unshare backend)
cid=""

cleanup() {
  set +e
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
  [ -n "$cid" ] && podman rm -f "$cid" >/dev/null 2>&1
  sleep 0.5
  mountpoint -q "$work/shared/lake" && umount -l "$work/shared/lake"
  mountpoint -q "$work/shared" && umount -l "$work/shared"
  mountpoint -q "$root" && umount -l "$root"
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT

# What the image says about itself.
config="$(podman image inspect --format '{{json .Config}}' "$image")"
field() { python3 -c 'import json,sys; c=json.loads(sys.argv[1]); v=c.get(sys.argv[2]) or ""
print("\n".join(v) if isinstance(v, list) else v)' "$config" "$1"; }
user="$(field User)"
workdir="$(field WorkingDir)"
mapfile -t env < <(field Env)
mapfile -t entrypoint < <(field Entrypoint)
healthcheck="$(podman image inspect "$image" \
  | python3 -c 'import json,sys; h=json.load(sys.stdin)[0].get("Healthcheck") or {}; t=h.get("Test") or []; print(t[1] if len(t) > 1 else "")')"
[ -n "$healthcheck" ] || fail "the image has no HEALTHCHECK (build it with --format docker)"
[ "$user" = strata ] || fail "the image's user is '$user', expected the non-root user strata"

# The container's mountpoint is inside the shared volume, so that it propagates to the host.
mountpoint=/mnt/shared/lake
args=(/data "$mountpoint" -o allow_other)
# Options from the environment, as -e gives them. A class-data sharing archive from a first
# container of 3 s or more counts as complete, so the second container runs the JVM itself as PID 1
# (the first runs bin/strata, which records the archive, as PID 1): both ways get SIGTERM.
opts_env=(STRATA_METADATA_SYNC_INTERVAL=0 STRATA_CDS_MIN_SESSION=3)

backend=unshare
if podman run --rm --entrypoint /bin/true "$image" >/dev/null 2>&1; then
  backend=podman
fi
echo "-- running $image with $backend"

# The host side of the sidecar pattern: a shared mount (its own peer group) that the container's
# mount propagates into.
mount --bind "$work/shared" "$work/shared"
mount --make-private "$work/shared"
mount --make-shared "$work/shared"
mkdir -p "$work/shared/lake"
chown "$uid:$uid" "$work/shared/lake"


if [ "$backend" = unshare ]; then
  # (podman create/rm complain that systemd is not there to time healthchecks: not needed here)
  export_cid="$(podman create "$image" 2>/dev/null)"
  podman export "$export_cid" | tar -x -C "$root"
  podman rm "$export_cid" >/dev/null 2>&1
  # A private mount: what the container mounts under its root stays in its namespace (the
  # namespace keeps the host's propagation, so that the shared volume's mounts reach the host).
  mount --bind "$root" "$root"
  mount --make-private "$root"
fi

# Starts the image's ENTRYPOINT with the test's arguments; sets pid.
start() {
  if [ "$backend" = podman ]; then
    cid="$(podman run -d --device /dev/fuse --cap-add SYS_ADMIN \
      -v "$work/src:/data" -v "$work/state:/var/lib/strata" -v "$work/cache:/var/cache/strata" \
      --mount "type=bind,src=$work/shared,dst=/mnt/shared,bind-propagation=rshared" \
      "${opts_env[@]/#/--env=}" "$image" "${args[@]}")"
    pid="$(podman inspect --format '{{.State.Pid}}' "$cid")"
    return
  fi
  # In the new namespaces: a private copy of the root file system with what a runtime provides
  # (proc, a minimal /dev with /dev/fuse, tmpfs /tmp, the volumes), then chroot, the image's
  # user and working directory, and exec, so that the ENTRYPOINT is PID 1.
  local setup='
    set -e
    root="$1" work="$2" uid="$3" workdir="$4"; shift 4
    mount -t proc proc "$root/proc"
    mount -t tmpfs -o mode=755,nosuid tmpfs "$root/dev"
    for d in null zero full random urandom tty; do touch "$root/dev/$d"; mount --bind "/dev/$d" "$root/dev/$d"; done
    # /dev/fuse as the kernel makes it (0666; --device copies the host node): fusermount3 opens it
    # as the calling user. (This CI machine'"'"'s own node is 0600.)
    mknod -m 666 "$root/dev/fuse" c 10 229
    ln -s /proc/self/fd "$root/dev/fd"
    for i in 0 1 2; do ln -s "/proc/self/fd/$i" "$root/dev/$(echo stdin stdout stderr | cut -d" " -f$((i + 1)))"; done
    mkdir -p "$root/dev/shm" && mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
    mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
    mkdir -p "$root/data" "$root/mnt/shared"
    mount --bind "$work/src" "$root/data"
    mount --bind "$work/state" "$root/var/lib/strata"
    mount --bind "$work/cache" "$root/var/cache/strata"
    mount --bind "$work/shared" "$root/mnt/shared"   # a shared source: the bind joins its peer group (rshared)
    exec chroot --userspec="$uid:$uid" "$root" /usr/bin/env -i "$@"'
  local cd_exec='cd "$0" && exec "$@"'
  unshare --mount --propagation unchanged --pid --fork bash -c "$setup" setup "$root" "$work" "$uid" "$workdir" \
    "${env[@]}" "${opts_env[@]}" /bin/sh -c "$cd_exec" "$workdir" "${entrypoint[@]}" "${args[@]}" \
    > "$work/container.log" 2>&1 &
  launcher=$!
  for _ in $(seq 50); do
    pid="$(pgrep -P "$launcher" || true)"
    [ -n "$pid" ] && return
    sleep 0.1
  done
  fail "the container did not start: $(cat "$work/container.log")"
}

# Runs a command inside the running container, as its user.
in_container() {
  if [ "$backend" = podman ]; then
    podman exec "$cid" "$@"
  else
    nsenter -t "$pid" -m -p -r -w -S "$uid" -G "$uid" -- "$@"
  fi
}

await_mount() {
  for _ in $(seq 300); do
    grep -q " $work/shared/lake [^ ]* .* - fuse.strata " /proc/self/mountinfo && return
    kill -0 "$pid" 2>/dev/null || fail "the container exited before mounting: $(logs)"
    sleep 0.2
  done
  fail "the container's mount did not show on the host within 60 s: $(logs)"
}

logs() { if [ "$backend" = podman ]; then podman logs "$cid" 2>&1; else cat "$work/container.log"; fi; }

# SIGTERM to PID 1, as docker stop sends; returns the exit status.
stop() {
  local status=0
  if [ "$backend" = podman ]; then
    podman stop -t 60 "$cid" >/dev/null
    status="$(podman inspect --format '{{.State.ExitCode}}' "$cid")"
    podman rm "$cid" >/dev/null
    cid=""
  else
    kill -TERM "$pid"
    wait "$launcher" || status=$?
  fi
  pid=""
  return "$status"
}

if [ "$backend" = unshare ]; then
  echo "-- the HEALTHCHECK fails without a mount"
  if chroot --userspec="$uid:$uid" "$root" /usr/bin/env -i "${env[@]}" "$healthcheck" >/dev/null 2>&1; then
    fail "the healthcheck passed with nothing mounted"
  fi
fi

echo "-- first container: mount, write both ways"
started=$SECONDS
start
await_mount
echo "   mounted after $((SECONDS - started)) s"
# A new volume's root is root's (0755), as a fresh file system's is: the sidecar's consumer (root
# on the host here) hands it to the container's user once, and the metastore keeps that.
chown "$uid:$uid" "$work/shared/lake" || fail "chown of the mount's root through the host's view failed"
in_container /bin/sh -c "echo from-container > $mountpoint/a.txt && sync $mountpoint/a.txt" \
  || fail "writing through the container's mount failed: $(logs)"
[ "$(cat "$work/src/a.txt" 2>/dev/null)" = from-container ] || fail "the container's write is not in the host's source directory"
# The root was listed already; a listing shows the host's new file only with STRATA_METADATA_SYNC_INTERVAL=0
# from the environment (otherwise a directory is listed from the source once).
in_container ls "$mountpoint" >/dev/null
echo from-host > "$work/src/b.txt"
in_container ls "$mountpoint" | grep -qx b.txt \
  || fail "a file the host put in the source is not listed in the container's mount (STRATA_* from the environment not applied?)"
[ "$(in_container cat "$mountpoint/b.txt")" = from-host ] \
  || fail "a file the host put in the source is not seen through the container's mount"

echo "-- the host sees the container's mount (rshared) and writes through it"
[ "$(cat "$work/shared/lake/a.txt")" = from-container ] || fail "the host does not see the container's mount"
echo through-host > "$work/shared/lake/c.txt"
setfattr -n user.strata-test -v kept "$work/shared/lake/c.txt"
chmod 604 "$work/shared/lake/c.txt"
[ "$(in_container cat "$mountpoint/c.txt")" = through-host ] || fail "a write through the host's view is not seen in the container"

echo "-- the HEALTHCHECK passes while mounted, fails while the daemon does not answer"
in_container "$healthcheck" >/dev/null || fail "the healthcheck failed on a working mount"
# The JVM: PID 1 itself, or its child while bin/strata records the class-data sharing archive.
jvm="$pid"
[ "$(cat "/proc/$pid/comm")" = java ] || jvm="$(pgrep -P "$pid" java)"
echo "   PID 1 is $(cat "/proc/$pid/comm"); the JVM's host pid $jvm"
kill -STOP "$jvm"
sleep 1.5 # past attr_timeout (1s), so that the stat reaches the daemon
if in_container "$healthcheck" >/dev/null 2>&1; then
  kill -CONT "$jvm"
  fail "the healthcheck passed while the daemon was stopped"
fi
kill -CONT "$jvm"
in_container "$healthcheck" >/dev/null || fail "the healthcheck failed once the daemon ran again"

# 143 is 128 + SIGTERM: the JVM's status after its shutdown hook (flush, unmount) ran on SIGTERM,
# which docker and Kubernetes count as a clean stop.
echo "-- SIGTERM: flush, unmount, exit 0 or 143"
stop_ok() { local status=0; stop || status=$?; [ "$status" = 0 ] || [ "$status" = 143 ] || return "$status"; }
stop_ok || fail "the container exited with status $? on SIGTERM: $(logs)"
grep -q "unmounted /mnt/shared/lake" <<< "$(logs)" || fail "the daemon did not log its unmount on SIGTERM: $(logs)"
sleep 0.5
if grep -q " $work/shared/lake .* - fuse" /proc/self/mountinfo; then
  fail "a stale mount is left at $work/shared/lake after SIGTERM"
fi
ls "$work/cache/cds/"*.jsa >/dev/null 2>&1 || fail "the first container left no class-data sharing archive in the cache volume"

echo "-- second container, same state volume: same namespace"
start
await_mount
echo "   PID 1 is $(cat "/proc/$pid/comm")"
[ "$(cat "$work/shared/lake/c.txt")" = through-host ] || fail "the second container does not show c.txt"
[ "$(getfattr --only-values -n user.strata-test "$work/shared/lake/c.txt" 2>/dev/null)" = kept ] \
  || fail "the xattr set in the first container is gone in the second (the state volume was not used?)"
[ "$(stat -c %a "$work/shared/lake/c.txt")" = 604 ] || fail "the mode set in the first container is gone in the second"
[ "$(stat -c %u "$work/shared/lake")" = "$uid" ] || fail "the root's owner set in the first container is gone in the second"
stop_ok || fail "the second container exited with status $? on SIGTERM: $(logs)"
echo "container ($backend): ok"

#!/usr/bin/env bash
# mount(8) and /etc/fstab mount Strata through bin/mount.fuse.strata: `bin/strata install-helper`,
# then `mount -t fuse.strata` and `mount -T FSTAB MOUNTPOINT` with a test fstab whose line carries
# what real ones do (_netdev, nofail, rw, defaults-style flags, a conf= file), a write through each
# mount read back from the source directory, and umount(8) ending the daemon. Root, real FUSE.
#
#   integration-tests/docker/fstab-test.sh      (run by .ci/run; exit 1 on the first failure)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"

fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "run as root: mount(8) runs its helpers from /sbin"
[ -f cli/target/strata.jar ] || ./mvnw -B -q -o -DskipTests package -pl cli -am

work="$(mktemp -d /tmp/strata-fstab.XXXXXX)"
helper=/sbin/mount.fuse.strata
cleanup() {
  for m in "$work/mnt1" "$work/mnt2"; do mountpoint -q "$m" && umount -l "$m"; done
  # remove the helper only if it is still ours (another checkout may have installed its own since)
  [ "$(readlink "$helper" 2>/dev/null)" = "$repo/bin/mount.fuse.strata" ] && rm -f "$helper"
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/src" "$work/mnt1" "$work/mnt2" "$work/state"
export STRATA_STATE_DIR="$work/state"

echo "-- bin/strata install-helper"
bin/strata install-helper >/dev/null
[ "$(readlink "$helper")" = "$repo/bin/mount.fuse.strata" ] || fail "install-helper did not link $helper"

echo "-- mount -t fuse.strata SOURCE MOUNTPOINT -o ..."
mount -t fuse.strata "$work/src" "$work/mnt1" -o rw,allow_other,attr_timeout=2 \
  || fail "mount -t fuse.strata failed"
grep -q " $work/mnt1 .* - fuse.strata " /proc/self/mountinfo || fail "$work/mnt1 is not a fuse.strata mount"
echo one > "$work/mnt1/one.txt"
sync "$work/mnt1/one.txt"
[ "$(cat "$work/src/one.txt")" = one ] || fail "a file written through mount -t is not in the source"
umount "$work/mnt1" || fail "umount of the mount -t mount failed"

echo "-- mount -T FSTAB MOUNTPOINT"
# the conf= file's option shows: without metadata_sync_interval=0 a directory is listed once only
cat > "$work/strata.properties" <<PROPS
metadata_sync_interval=0
PROPS
cat > "$work/fstab" <<FSTAB
# a test fstab: the line an administrator would write, with the options mount(8) and systemd add
$work/src  $work/mnt2  fuse.strata  defaults,_netdev,nofail,noatime,x-systemd.automount,allow_other,conf=$work/strata.properties  0  0
FSTAB
mount -T "$work/fstab" "$work/mnt2" || fail "mount -T $work/fstab $work/mnt2 failed"
grep -q " $work/mnt2 .* - fuse.strata " /proc/self/mountinfo || fail "$work/mnt2 is not a fuse.strata mount"
[ "$(cat "$work/mnt2/one.txt")" = one ] || fail "the fstab mount does not show the file the first mount wrote"
echo two > "$work/src/two.txt"
[ "$(cat "$work/mnt2/two.txt")" = two ] || fail "the fstab mount does not show a file added to the source (conf= not applied?)"

echo "-- a misspelt option fails the mount with Strata's message"
if out="$(mount -t fuse.strata "$work/src" "$work/mnt1" -o atr_timeout=2 2>&1)"; then
  fail "a mount with an unknown option succeeded"
fi
echo "$out" | grep -q "attr_timeout" || fail "the error for an unknown option does not name the closest one: $out"

echo "-- umount(8) ends the daemon"
pid="$(cat "$work"/state/run/*.pid 2>/dev/null | head -1 || true)"
umount "$work/mnt2" || fail "umount of the fstab mount failed"
if [ -n "$pid" ]; then
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  ! kill -0 "$pid" 2>/dev/null || fail "the daemon (pid $pid) still runs 10 s after umount"
fi
echo "fstab: ok"

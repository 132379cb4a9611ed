#!/usr/bin/env bash
# The container step of .ci/run: the base image from Debian's packages (base-image.sh), the
# Dockerfile built with podman (chroot isolation: RUN steps need no OCI runtime), the image run and
# checked (container-test.sh), and mount(8)/fstab through the helper (fstab-test.sh). Prints each
# part's time and the image's size; exits non-zero, naming the part, on the first failure.
#
# The Maven repository of the host (~/.m2, filled by the build before this step) is lent to the
# image's build stage, and the base image's tarball is kept in $STRATA_CI_CACHE, so a second run of
# this step takes a fraction of the first. Budget: 8 minutes on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/../.."

image=localhost/strata:ci
step_start=$SECONDS
part_start=$SECONDS
part() { echo "   ($(( SECONDS - part_start )) s)"; part_start=$SECONDS; }
failed() { echo "container step FAILED in: $1 (after $(( SECONDS - step_start )) s)" >&2; exit 1; }

for tool in podman debootstrap unshare nsenter setfattr; do
  command -v "$tool" >/dev/null || failed "setup: $tool is missing (apt-get install podman debootstrap util-linux attr)"
done

echo "-- base image (debootstrap of Debian 12, podman import)"
integration-tests/docker/base-image.sh || failed "base image"
part

echo "-- podman build (Dockerfile)"
mkdir -p "$HOME/.m2"
if ! podman build --quiet --format docker --isolation chroot --volume "$HOME/.m2:/root/.m2" -t "$image" . \
    > /tmp/strata-podman-build.log 2>&1; then
  tail -30 /tmp/strata-podman-build.log >&2
  failed "podman build (log: /tmp/strata-podman-build.log)"
fi
echo "   image $image: $(podman image inspect --format '{{.Size}}' "$image" | awk '{ printf "%.0f MB", $1 / 1e6 }')"
part

echo "-- the image, run"
integration-tests/docker/container-test.sh "$image" || failed "container test"
part

echo "-- mount(8) and fstab"
integration-tests/docker/fstab-test.sh || failed "fstab test"
part
echo "container step: ok in $(( SECONDS - step_start )) s"

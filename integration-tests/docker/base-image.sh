#!/usr/bin/env bash
# Makes the Dockerfile's base image, debian:bookworm-slim, from Debian's own packages, for machines
# that reach Debian's mirror but no container registry: debootstrap (minbase) into a directory,
# trimmed as Debian's slim images are (no documentation, no apt lists), then `podman import` under
# the name the Dockerfile asks for. The tarball is kept in the cache directory, so later steps of a
# run (and later runs) import it again in seconds.
#
#   integration-tests/docker/base-image.sh [CACHE_DIR]   (default $STRATA_CI_CACHE or /var/cache/strata-ci)
set -euo pipefail

cache="${1:-${STRATA_CI_CACHE:-/var/cache/strata-ci}}"
image=docker.io/library/debian:bookworm-slim
mirror="${STRATA_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
tarball="$cache/debian-bookworm-slim.tar"

if podman image exists "$image"; then
  echo "base image $image: present"
  exit 0
fi
mkdir -p "$cache"
if [ ! -s "$tarball" ]; then
  root="$(mktemp -d /var/tmp/strata-debootstrap.XXXXXX)"
  trap 'rm -rf "$root"' EXIT
  echo "base image: debootstrap bookworm from $mirror"
  if ! debootstrap --variant=minbase bookworm "$root" "$mirror" > "$cache/debootstrap.log" 2>&1; then
    tail -20 "$cache/debootstrap.log" >&2
    echo "debootstrap of Debian 12 failed (log: $cache/debootstrap.log); check that $mirror is reachable" >&2
    exit 1
  fi
  # What Debian's slim images do: later package installs leave documentation out, and apt lists
  # and caches are not part of the image.
  cat > "$root/etc/dpkg/dpkg.cfg.d/docker" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
DPKG
  echo 'APT::Install-Recommends "false";' > "$root/etc/apt/apt.conf.d/docker-no-recommends"
  echo "deb $mirror bookworm main" > "$root/etc/apt/sources.list"
  echo "deb $mirror bookworm-updates main" >> "$root/etc/apt/sources.list"
  find "$root/usr/share/doc" -mindepth 2 ! -name copyright -delete 2>/dev/null || true
  rm -rf "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/lib/apt/lists/* \
    "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/var/log/*.log
  tar --numeric-owner -C "$root" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
fi
podman import --quiet --change 'CMD ["bash"]' "$tarball" "$image" >/dev/null
echo "base image $image: imported from $tarball ($(du -h "$tarball" | cut -f1))"

#!/usr/bin/env bash
# The page store over S3 with latency, in one run: a 1 GiB object on S3Proxy behind the delaying
# proxy of bench/s3-readahead.sh (DELAY_MS each way), read with `cat` through a fresh mount twice,
# with `echo 3 > /proc/sys/vm/drop_caches` before each read: the first read fetches from S3 (with
# readahead) and fills the page store, the second is served by the page store (memory and disk
# tiers) with no GET. Setup, cleanup and environment variables as in bench/s3-readahead.sh.
#
# Usage: bench/s3-page-cache.sh [DELAY_MS]   (default 10; needs root, libfuse2, python3)
set -euo pipefail
# shellcheck source=bench/s3-bench-env.sh
source "$(dirname "$0")/s3-bench-env.sh"

secs_of() { # command...: wall seconds
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    python3 -c "print('%.2f' % ($end - $start))"
}

# One warm-up read, and room for the warm-up object and the measured one in the disk tier.
mount_fresh cache "local_data_cache_size=$((3 * size_mib))MiB" 1
drop_caches
first=$(secs_of cat "$mnt/$key")
drop_caches
second=$(secs_of cat "$mnt/$key")
drop_caches
actual_sha=$(sha256sum <"$mnt/$key" | cut -d' ' -f1)
[ "$actual_sha" = "$expected_sha" ] || { echo "s3-page-cache.sh: WRONG BYTES through the mount" >&2; exit 1; }
unmount

mib_s() { python3 -c "import sys; print('%.1f' % ($size_mib / float(sys.argv[1])))" "$1"; }
printf 'page store over S3: cat of a %s MiB object through the mount, %s ms added each way, drop_caches before each\n' \
    "$size_mib" "$delay"
printf '%-40s %8s %10s\n' "read" "seconds" "MiB/s"
printf '%-40s %8s %10s\n' "first cat (from S3, fills the cache)" "$first" "$(mib_s "$first")"
printf '%-40s %8s %10s\n' "second cat (from the page store)" "$second" "$(mib_s "$second")"
printf '%-40s %8sx\n' "second / first speedup" "$(ratio "$first" "$second")"

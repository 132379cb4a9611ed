#!/usr/bin/env bash
# Buffered writes of 2 GiB into a new file right after the kernel's page cache was dropped, in
# writes of 1 MiB, 512 KiB, 256 KiB and 128 KiB, alternating for ROUNDS rounds: the measurement
# behind io.strata.core.io.PageCacheWrites (why Strata hands the page cache at most 256 KiB per
# write). Needs root (drop_caches).
#
# Usage: bench/page-cache-writes.sh [ROUNDS]   (default 3; the file goes to STRATA_BENCH_DIR, default /var/tmp)
set -euo pipefail
rounds=${1:-3}
file=$(mktemp "${STRATA_BENCH_DIR:-/var/tmp}/strata-pcw.XXXXXX")
trap 'rm -f "$file"' EXIT
declare -A rates
sizes=(1024 512 256 128)
for _ in $(seq "$rounds"); do
    for kib in "${sizes[@]}"; do
        rm -f "$file"
        sync
        echo 3 >/proc/sys/vm/drop_caches
        sleep 2
        rate=$(python3 - "$file" "$kib" <<'PY'
import os, sys, time
path, piece = sys.argv[1], int(sys.argv[2]) * 1024
data = os.urandom(piece)
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
start = time.monotonic()
for i in range((2 << 30) // piece):
    os.pwrite(fd, data, i * piece)
elapsed = time.monotonic() - start
os.close(fd)
print("%.0f MiB/s" % (2048 / elapsed))
PY
)
        rates[$kib]="${rates[$kib]:+${rates[$kib]}, }$rate"
    done
done
echo "$(uname -r), 2 GiB of buffered writes into a new file after drop_caches, $rounds rounds:"
for kib in "${sizes[@]}"; do
    printf '  %5d KiB writes: %s\n' "$kib" "${rates[$kib]}"
done

#!/usr/bin/env bash
# `ls -lR` over a tree of N files through a Strata mount, with the heap metadata cache on (the
# default) and off (-o local_metadata_cache_size=0), in one run. Each timing is the second `ls -lR`
# of a fresh mount (the first one merges the source listing into the metastore), once with the
# default kernel timeouts after they expired, once with the kernel caches off (attr/entry 0).
#
# Usage: bench/ls-heap-cache.sh [N] [META_URL]   (default 10000 files; default metastore: SQLite)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
files=${1:-10000}
meta=${2:-}
work=$(mktemp -d /var/tmp/strata-ls.XXXXXX)
src=$work/src mnt=$work/mnt
mkdir -p "$src" "$mnt"
export STRATA_STATE_DIR=$work/state
cleanup() {
    "$here/bin/strata" umount "$mnt" >/dev/null 2>&1 || fusermount -u -z "$mnt" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# 100 directories of N/100 files: depth 2, like a partitioned dataset.
python3 - "$src" "$files" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, "part=%03d" % (i % 100))
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "f%06d.parquet" % i), "w").close()
PY

# Seconds for one `ls -lR` of the mount.
time_ls() {
    local start end
    start=$(date +%s.%N)
    ls -lR "$mnt" >/dev/null
    end=$(date +%s.%N)
    python3 -c "print('%.3f' % ($end - $start))"
}

run() { # extra -o options; prints the second ls -lR time
    local opts=$1
    "$here/bin/strata" mount "$src" "$mnt" -o "$opts${meta:+,meta=$meta}" >/dev/null
    time_ls >/dev/null                  # first: merges the listing into the metastore
    sleep 1.2                           # let the kernel's 1 s attr/entry caches expire
    time_ls
    "$here/bin/strata" umount "$mnt" >/dev/null
}

printf '%-44s %10s %10s %8s\n' "ls -lR of $files files" "cache on" "cache off" "speedup"
for kernel in "attr_timeout=1,entry_timeout=1" "attr_timeout=0,entry_timeout=0"; do
    on=$(run "$kernel")
    off=$(run "$kernel,local_metadata_cache_size=0")
    printf '%-44s %9ss %9ss %7sx\n' "kernel $kernel" "$on" "$off" "$(python3 -c "print('%.2f' % ($off/$on))")"
done

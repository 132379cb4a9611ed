#!/usr/bin/env bash
# Sequential fio write and read (1 MiB blocks, one job) through a Strata mount of a local directory,
# next to the same fio run directly on that directory, in one run. Prints a table with ratios.
#
# Usage: bench/fio-local.sh [SIZE]   (default 1G; needs root, libfuse2, fio)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
size=${1:-1G}
work=$(mktemp -d /var/tmp/strata-fio.XXXXXX)
src=$work/src mnt=$work/mnt
mkdir -p "$src" "$mnt"
export STRATA_STATE_DIR=$work/state
cleanup() {
    "$here/bin/strata" umount "$mnt" >/dev/null 2>&1 || fusermount -u -z "$mnt" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

"$here/bin/strata" mount "$src" "$mnt" >&2

# One fio job; prints its bandwidth in MiB/s.
run_fio() { # dir rw
    local dir=$1 rw=$2
    sync
    echo 3 >/proc/sys/vm/drop_caches
    fio --name=seq --directory="$dir" --filename=fio.dat --rw="$rw" --bs=1M --size="$size" --numjobs=1 \
        --ioengine=psync --end_fsync=1 --output-format=json 2>/dev/null |
        python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; k=sys.argv[1]; print("%.0f" % (j[k]["bw_bytes"]/1048576))' \
            "$([ "$rw" = write ] && echo write || echo read)"
}

# Separate directories: the mount's file lands in $src/m, the direct run's in $src/d.
mkdir "$mnt/m" "$src/d"
mount_write=$(run_fio "$mnt/m" write)
direct_write=$(run_fio "$src/d" write)
mount_read=$(run_fio "$mnt/m" read)
direct_read=$(run_fio "$src/d" read)

printf '%-28s %12s %12s %8s\n' "fio, 1 MiB blocks, $size, 1 job" "mount MiB/s" "direct MiB/s" "ratio"
printf '%-28s %12s %12s %8s\n' "sequential write" "$mount_write" "$direct_write" \
    "$(python3 -c "print('%.2f' % ($mount_write/$direct_write))")"
printf '%-28s %12s %12s %8s\n' "sequential read" "$mount_read" "$direct_read" \
    "$(python3 -c "print('%.2f' % ($mount_read/$direct_read))")"

#!/usr/bin/env bash
# The two FUSE transports side by side in one run, each over its own local directory with the page
# store on: Strata's own (fuse=kernel) and libfuse2 through jnr-fuse (fuse=jnr). Prints one table
# with the ratio kernel/jnr per row (for times, jnr/kernel: higher is better for kernel either way).
# The page store's memory tier (3 GiB) holds the files read, so that reads measure the transport and
# not this machine's disk (~360 MiB/s). Writes go to the source directory and the page store's disk
# tier, both under STRATA_BENCH_DIR (default /var/tmp): on this machine's ext4 (no journal) those
# rows measure the disk for both transports (creates ~1.5 ms per inode, writes ~360 MiB/s), so
# STRATA_BENCH_DIR=/dev/shm is how the transport itself is compared.
#
#   random reads   fio 4 KiB randread, O_DIRECT, libaio, iodepth 32, 1 job, on a 1 GiB file held in
#                  the page store (written through the mount, then read once): IOPS, p50, p99
#   sequential     fio 1 MiB write of a 2 GiB file (psync, end_fsync), then reads of it after the
#                  kernel's caches are dropped: the first fills the page store's disk tier
#                  (cache_on_write keeps only what its staging budget holds), the next two move its
#                  pages into the memory tier (a page is promoted at its second hit there), and once
#                  the daemons are idle, STRATA_BENCH_ROUNDS (5) rounds, the transports taking
#                  turns, each a timed read after the kernel's caches are dropped and one with
#                  O_DIRECT (no page cache: the transport alone), served by the memory tier. Each row
#                  is the median; the rounds are printed below the table. One timed read right after
#                  the fill (served by the disk tier) measured this VM more than the transports: 621 /
#                  641 MiB/s in one run, and the same build's reads ranged 235 to 2,255 MiB/s from
#                  round to round, the promoting one slowest; buffered reads still fill fresh
#                  page-cache pages and range 2-4x between rounds for either transport
#                  (docs/PERFORMANCE.md, fifty-third round)
#   listing        ls -lR and find over 100 x 100 files, on a fresh mount with the kernel's caches
#                  dropped (first), and again with them dropped again (second)
#   small files    2 threads x 100 files of 128 KiB: create/write/close, then open/read/close, after
#                  one such pass in another directory (not measured)
#
# Each group of rows runs on a volume of its own (a new source, state and page store, a fresh mount),
# and the transports take turns going first from one group to the next. When one mount ran every
# row, a row's figure depended on what had run before it on this VM: the same build's sequential
# write took 114 to 1,088 MiB/s and its sequential read from the page store 890 to 2,000, by the
# rows and the transport before them (docs/PERFORMANCE.md, fiftieth round).
#
# Usage: bench/fuse-transport.sh [TRANSPORT...]   (default: kernel jnr; needs root, fio, libfuse2)
# STRATA_BENCH_OPTS adds -o options to both mounts (comma-separated); STRATA_BENCH_ROUNDS sets the
# sequential reads' rounds (5).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
transports=("$@")
rounds=${STRATA_BENCH_ROUNDS:-5}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "STRATA_BENCH_ROUNDS must be a whole number of 1 or more, not '$rounds'" >&2; exit 2; }
[ ${#transports[@]} -gt 0 ] || transports=(kernel jnr)
work=$(mktemp -d "${STRATA_BENCH_DIR:-/var/tmp}/strata-transport.XXXXXX")
cleanup() {
    for t in "${transports[@]}"; do
        "$here/bin/strata" umount "$work/$t/mnt" >/dev/null 2>&1 || umount -l "$work/$t/mnt" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }

mount_volume() { # transport
    local t=$1
    # The 3 GiB memory tier is direct memory, beyond the mount's default limit (bin/strata).
    STRATA_JAVA_OPTS="-XX:MaxDirectMemorySize=3200m ${STRATA_JAVA_OPTS:-}" "$here/bin/strata" mount "$work/$t/src" "$work/$t/mnt" \
        -o "fuse=$t,state_dir=$work/$t/state,local_data_cache_size=4GiB,local_cache_memory_size=3GiB${STRATA_BENCH_OPTS:+,$STRATA_BENCH_OPTS}" \
        >/dev/null
}

umount_volume() { "$here/bin/strata" umount "$work/$1/mnt" >/dev/null; }

# fio's JSON on stdin -> "IOPS p50_us p99_us MiB/s" of its first job's reads (or writes with $1=write).
fio_figures() {
    python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0][sys.argv[1]]
p = j["clat_ns"].get("percentile", {})
print("%.0f %.0f %.0f %.0f" % (j["iops"], p.get("50.000000", 0) / 1000, p.get("99.000000", 0) / 1000,
                               j["bw_bytes"] / 1048576))' "$1"
}

seconds() { # command... ; prints the wall time in seconds
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    python3 -c "print('%.2f' % ($end - $start))"
}

small_files() { # dir mode(write|read) -> files/s
    python3 - "$1" "$2" <<'EOF'
import os, sys, threading, time
root, mode = sys.argv[1], sys.argv[2]
threads, files, size = 2, 100, 128 * 1024
data = os.urandom(size)
def work(t):
    for i in range(files):
        path = os.path.join(root, "t%d-f%03d" % (t, i))
        if mode == "write":
            with open(path, "wb") as f:
                f.write(data)
        else:
            with open(path, "rb") as f:
                while f.read(1 << 20):
                    pass
start = time.monotonic()
workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
for w in workers: w.start()
for w in workers: w.join()
print("%.0f" % (threads * files / (time.monotonic() - start)))
EOF
}

declare -A result sequential_mounts sequential_rounds sequential_direct_rounds
fresh_volume() { # transport: a new source, state and page store, mounted; sets mnt
    local t=$1
    rm -rf "${work:?}/$t"
    mkdir -p "$work/$t/src" "$work/$t/mnt" "$work/$t/state"
    drop_caches
    mount_volume "$t"
    mnt=$work/$t/mnt
}
end_volume() { umount_volume "$1"; rm -rf "${work:?}/$1"; }

random_reads() { # transport
    local t=$1 iops p50 p99
    fresh_volume "$t"
    fio --name=fill --filename="$mnt/rand.dat" --rw=write --bs=1M --size=1G --ioengine=psync --end_fsync=1 \
        >/dev/null 2>&1
    drop_caches
    cat "$mnt/rand.dat" >/dev/null # into the page store (see the sequential rows)
    drop_caches
    read -r iops p50 p99 _ < <(fio --name=rand --filename="$mnt/rand.dat" --rw=randread --bs=4k --direct=1 \
        --ioengine=libaio --iodepth=32 --numjobs=1 --time_based --runtime=15 --output-format=json 2>/dev/null |
        fio_figures read)
    result[$t,rand_iops]=$iops result[$t,rand_p50]=$p50 result[$t,rand_p99]=$p99
    end_volume "$t"
}

sequential() { # transport: a write; the volume stays mounted for sequential_reads
    local t=$1 bw
    fresh_volume "$t"
    read -r _ _ _ bw < <(fio --name=seqw --filename="$mnt/seq.dat" --rw=write --bs=1M --size=2G \
        --ioengine=psync --end_fsync=1 --output-format=json 2>/dev/null | fio_figures write)
    result[$t,seq_write]=$bw
    sequential_mounts[$t]=$mnt
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; } # pid -> its CPU time, in ticks

wait_idle() { # mountpoint: until its daemon used under 5 % of a core for a second (at most a minute)
    local pid before i
    pid=$(pgrep -f "java.*$1" | head -1) || return 0
    for i in $(seq 1 60); do
        before=$(cpu_ticks "$pid")
        sleep 1
        [ $(($(cpu_ticks "$pid") - before)) -ge 5 ] || return 0
    done
}

sequential_reads() { # the files sequential wrote moved into the memory tier, then timed by turns; the volumes go
    local round t pass
    local -a turn=("${transports[@]}")
    for t in "${transports[@]}"; do
        for pass in fill promote promoted; do
            drop_caches
            read_mib_s "$t" >/dev/null
        done
    done
    for t in "${transports[@]}"; do
        wait_idle "${sequential_mounts[$t]}" # the fill threads' promotions run behind the reads
    done
    for round in $(seq 1 "$rounds"); do
        for t in "${turn[@]}"; do
            drop_caches
            sequential_rounds[$t]+=" $(read_mib_s "$t")"
            sequential_direct_rounds[$t]+=" $(read_mib_s "$t" --direct=1)"
        done
        [ ${#turn[@]} -lt 2 ] || turn=("${turn[1]}" "${turn[0]}")
    done
    for t in "${transports[@]}"; do
        result[$t,seq_read]=$(median ${sequential_rounds[$t]})
        result[$t,seq_read_direct]=$(median ${sequential_direct_rounds[$t]})
        end_volume "$t"
    done
}

read_mib_s() { # transport [fio option...] -> MiB/s of one sequential 1 MiB read of the file sequential wrote
    local t=$1 bw
    shift
    read -r _ _ _ bw < <(fio --name=seqr --filename="${sequential_mounts[$t]}/seq.dat" --rw=read --bs=1M --size=2G \
        --ioengine=psync "$@" --output-format=json 2>/dev/null | fio_figures read)
    echo "$bw"
}

median() { # integers -> their median
    python3 -c 'import statistics, sys; print(int(statistics.median(map(int, sys.argv[1:]))))' "$@"
}

small() { # transport
    local t=$1
    fresh_volume "$t"
    # One pass first, not measured: the rows compare the transports' request paths, not how long
    # a fresh JVM takes to compile them.
    mkdir "$mnt/warm" "$mnt/small"
    small_files "$mnt/warm" write >/dev/null
    small_files "$mnt/warm" read >/dev/null
    drop_caches
    result[$t,small_write]=$(small_files "$mnt/small" write)
    drop_caches
    result[$t,small_read]=$(small_files "$mnt/small" read)
    end_volume "$t"
}

listings() { # transport: a tree of 10,000 files, listed from a fresh mount
    local t=$1 tool cmd
    fresh_volume "$t"
    python3 - "$mnt/tree" <<'EOF'
import os, sys
root = sys.argv[1]
for d in range(100):
    os.makedirs(os.path.join(root, "d%03d" % d))
    for f in range(100):
        with open(os.path.join(root, "d%03d" % d, "f%04d" % f), "wb") as out:
            out.write(b"x" * 4096)
EOF
    for tool in lsR find; do
        umount_volume "$t"
        drop_caches
        mount_volume "$t"
        cmd=(ls -lR "$mnt/tree")
        [ "$tool" = find ] && cmd=(find "$mnt/tree" -type f)
        result[$t,${tool}_first]=$(seconds "${cmd[@]}")
        drop_caches
        result[$t,${tool}_second]=$(seconds "${cmd[@]}")
    done
    [ "$(find "$mnt/tree" -type f | wc -l)" = 10000 ] || { echo "listing of $t is wrong" >&2; exit 1; }
    end_volume "$t"
}

order=("${transports[@]}")
firsts=()
for group in random_reads sequential small listings; do
    for t in "${order[@]}"; do
        "$group" "$t"
    done
    [ "$group" != sequential ] || sequential_reads
    firsts+=("$group ${order[0]}")
    # The other transport goes first in the next group.
    [ ${#order[@]} -lt 2 ] || order=("${order[1]}" "${order[0]}")
done

a=${transports[0]} b=${transports[1]:-${transports[0]}}
ratio() { python3 -c "print('%.2f' % ($1 / $2))" 2>/dev/null || echo "-"; }
printf '%-52s %10s %10s %8s\n' "$(nproc) cores; page store on (3 GiB memory tier); one run" "$a" "$b" "$a/$b"
row() { # label key higher_is_better
    local x=${result[$a,$2]} y=${result[$b,$2]}
    if [ "$3" = higher ]; then r=$(ratio "$x" "$y"); else r=$(ratio "$y" "$x"); fi
    printf '%-52s %10s %10s %8s\n' "$1" "$x" "$y" "$r"
}
row "4 KiB randread O_DIRECT libaio qd32, IOPS" rand_iops higher
row "  p50 latency, us" rand_p50 lower
row "  p99 latency, us" rand_p99 lower
row "sequential write 1 MiB, 2 GiB, MiB/s" seq_write higher
row "sequential read 1 MiB, 2 GiB, memory tier, MiB/s" seq_read higher
row "  the same, O_DIRECT, MiB/s" seq_read_direct higher
row "small files 128 KiB, 2 threads, create/write/close/s" small_write higher
row "small files 128 KiB, 2 threads, open/read/close/s" small_read higher
row "ls -lR 10,000 files, first, s" lsR_first lower
row "ls -lR 10,000 files, second, s" lsR_second lower
row "find 10,000 files, first, s" find_first lower
row "find 10,000 files, second, s" find_second lower
echo "(ratio: $a/$b for rates, $b/$a for times and latencies: above 1 means $a is better; went first: ${firsts[*]})"
for t in "${transports[@]}"; do
    echo "sequential read rounds, $t, MiB/s:${sequential_rounds[$t]}; O_DIRECT:${sequential_direct_rounds[$t]} (medians above)"
done

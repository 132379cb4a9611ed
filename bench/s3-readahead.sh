#!/usr/bin/env bash
# Readahead over S3 with latency, in one run: a 1 GiB object on S3Proxy (its own process, a
# filesystem blob store in a temporary directory) reached through a delaying TCP proxy (DELAY_MS
# each way, added to every byte in both directions without capping throughput: tc netem's delay,
# for kernels without sch_netem). Prints:
#   - a plain parallel ranged download of the object with the AWS SDK (16 GETs of 8 MiB at a time,
#     no copies kept: the server and network limit a reader can reach),
#   - a single-stream sequential read through a Strata mount (dd bs=1M after drop_caches) with the
#     default readahead, with -o max_readahead=0, and with the default readahead but the page store
#     off (where the page store's own cost shows),
#   - fio random read IOPS, 4 KiB and 128 KiB blocks, 1 and 4 jobs (O_DIRECT, short time-based runs,
#     each on a fresh mount so that no run reads pages an earlier one cached),
# and whether the targets hold: readahead >= 5x faster than none, and the mount's sequential read
# >= 70 % of the plain download. Every mount is fresh (its own metastore and an empty page cache).
# Both sides are measured warm: before its timed read each reads STRATA_BENCH_WARMUPS objects as
# large as the measured one, untimed (the plain client downloads the object that many times; the
# mount reads other keys, so the page store gains nothing for the timed read). A JVM that has read
# one GiB is not warm yet: the SDK's per-request code runs ~128 times a GiB and is still being
# compiled several GiB later (measured: the daemon's compile time per GiB read fell 2.8, 1.9, 2.1,
# 1.0, 1.3 s over its first five GiB).
# drop_caches also drops the server's copy of the object; it is read back into memory (locally, not
# through the mount) before each timed run, so that every run measures the client side, not the
# server's disk. On a small machine everything here (server, proxy, client, dd) shares the CPU,
# which is then the limit rather than the network: compare ratios from one run only.
#
# Usage: bench/s3-readahead.sh [DELAY_MS]      (default 10; 0 allowed; needs root, libfuse2, fio, python3)
#   STRATA_BENCH_SIZE_MIB     object size (default 1024)
#   STRATA_BENCH_FIO_SECONDS  length of each fio run (default 10)
#   STRATA_BENCH_ROUNDS       rounds of the sequential measurements, interleaved; medians are printed
#                             (default 1; on a busy machine 3 or 5 steady the ratios)
#   STRATA_BENCH_WARMUPS      untimed reads of a whole object before each timed sequential read, on
#                             each side (default 4; the max_readahead=0 and fio mounts, bound by
#                             round trips rather than CPU, read one)
#   STRATA_BENCH_LINK_MIBS    bandwidth of the proxy's link in MiB/s per direction, shared by all
#                             connections (default 0: none). On a small machine the uncapped run is
#                             bound by CPU (the server, the proxy and the client share it), not by a
#                             network; a link below what the CPU can move puts the limit where a
#                             real object store has it, and shows whether readahead keeps it full.
#   STRATA_BENCH_DIR          where the blob store, state and logs go (default: a new dir in /var/tmp,
#                             removed at exit)
#   STRATA_MVN_FLAGS          extra Maven flags for the build steps (e.g. -o)
#   STRATA_JAVA_OPTS          JVM options of the mount daemons (as for bin/strata)
# Cleans up on any exit: unmounts, stops the server and the proxy, removes the temporary directory.
set -euo pipefail
# shellcheck source=bench/s3-bench-env.sh
source "$(dirname "$0")/s3-bench-env.sh"
plains=() withs=() withouts=() nocaches=()
for round in $(seq "$rounds"); do
    echo "round $round of $rounds: plain parallel download..." >&2
    drop_caches
    plains+=("$(java -cp "$cp" io.strata.it.bench.BenchObjects get "$endpoint" "$bucket" "$key" 8 16 "$warmups")")

    echo "round $round of $rounds: mount, default readahead..." >&2
    mount_fresh default
    withs+=("$(dd_mib_s "$mnt/$key")")
    if [ "$round" = 1 ]; then
        drop_caches
        actual_sha=$(sha256sum <"$mnt/$key" | cut -d' ' -f1)
        [ "$actual_sha" = "$expected_sha" ] || { echo "s3-readahead.sh: WRONG BYTES through the mount" >&2; exit 1; }
    fi
    unmount

    echo "round $round of $rounds: mount, max_readahead=0..." >&2
    mount_fresh none max_readahead=0 1 # bound by the round trips, not by CPU: one warm-up read will do
    withouts+=("$(dd_mib_s "$mnt/$key")")
    unmount

    echo "round $round of $rounds: mount, default readahead, page store off..." >&2
    mount_fresh nocache local_data_cache_size=0,local_cache_memory_size=0
    nocaches+=("$(dd_mib_s "$mnt/$key")")
    unmount
done
plain=$(median "${plains[@]}")
with=$(median "${withs[@]}")
without=$(median "${withouts[@]}")
nocache=$(median "${nocaches[@]}")

declare -A iops
for bs in 4k 128k; do
    for jobs in 1 4; do
        echo "fio randread $bs x $jobs..." >&2
        mount_fresh "fio-$bs-$jobs" "" 1
        iops[$bs-$jobs]=$(fio_iops "$mnt/$key" "$bs" "$jobs")
        unmount
    done
done

speedup=$(ratio "$with" "$without")
share=$(ratio "$with" "$plain")
verdict() { python3 -c "import sys; print('met' if float(sys.argv[1]) >= float(sys.argv[2]) else 'NOT met')" "$1" "$2"; }

printf '\nS3 readahead benchmark: %s MiB object on S3Proxy (filesystem blob store), %s ms added each way\n' \
    "$size_mib" "$delay"
printf '(each timed read after %s untimed reads of %s MiB on the same side: JIT warm); link: %s\n' "$warmups" \
    "$size_mib" "$([ "$link_mib_s" -gt 0 ] && echo "$link_mib_s MiB/s each way" || echo "no bandwidth cap")"
printf '(delaying TCP proxy, %s ms round trip); %s cores; bytes read through the mount checked (SHA-256)\n\n' \
    "$((2 * delay))" "$(nproc)"
printf '%-70s %10s\n' "sequential read$([ "$rounds" -gt 1 ] && echo ", median of $rounds rounds")" "MiB/s"
printf '%-70s %10s\n' "plain parallel ranged download (AWS SDK, 16 x 8 MiB GETs)" "$plain"
printf '%-70s %10s\n' "mount, dd bs=1M, default readahead (max_readahead=64MiB)" "$with"
printf '%-70s %10s\n' "mount, dd bs=1M, -o max_readahead=0" "$without"
printf '%-70s %10s\n' "mount, dd bs=1M, default readahead, page store off" "$nocache"
if [ "$rounds" -gt 1 ]; then
    printf '  (rounds: plain %s; readahead %s; max_readahead=0 %s; page store off %s)\n' "${plains[*]}" "${withs[*]}" \
        "${withouts[*]}" "${nocaches[*]}"
fi
printf '\n%-70s %10s %10s\n' "fio random read, O_DIRECT, ${fio_seconds}s (IOPS)" "1 job" "4 jobs"
printf '%-70s %10s %10s\n' "4 KiB" "${iops[4k-1]}" "${iops[4k-4]}"
printf '%-70s %10s %10s\n' "128 KiB" "${iops[128k-1]}" "${iops[128k-4]}"
printf '\n%-70s %10s  %s\n' "readahead / no readahead (target >= 5)" "${speedup}x" "$(verdict "$speedup" 5)"
printf '%-70s %10s  %s\n' "mount / plain download (target >= 0.70)" "$share" "$(verdict "$share" 0.70)"
printf '%-70s %10s\n' "mount, page store off / plain download" "$(ratio "$nocache" "$plain")"

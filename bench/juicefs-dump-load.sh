#!/usr/bin/env bash
# JuiceFS's dump and load, JSON and --binary, on Redis, for the peer column of bench/dump-load.sh:
# a volume of 1,000,101 inodes (100 x 100 directories of 99 files of one 4 KiB slice each, the
# shape of TreeGenerator's million), made by loading a generated JuiceFS dump, then dumped and
# loaded in both of JuiceFS's formats. Wall time and peak RSS from /usr/bin/time -v, file sizes.
#
# Usage: bench/juicefs-dump-load.sh   (JUICEFS: the juicefs binary, default juicefs on the PATH)
#   STRATA_BENCH_DIR   where Redis and the dumps go (default: a new dir in /var/tmp)
set -euo pipefail
juicefs=${JUICEFS:-juicefs}
for tool in /usr/bin/time redis-server redis-cli python3 "$juicefs"; do
    command -v "$tool" >/dev/null || { echo "juicefs-dump-load.sh: $tool is missing" >&2; exit 1; }
done
work=${STRATA_BENCH_DIR:-$(mktemp -d /var/tmp/juicefs-dump-load.XXXXXX)}
mkdir -p "$work"
redis_pid=
cleanup() {
    # wait for Redis to exit, or it may still write its log while the directory is removed
    [ -n "$redis_pid" ] && { kill "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null; } || true
    [ -z "${STRATA_BENCH_DIR:-}" ] && rm -rf "$work"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
    --logfile "$work/redis.log" --daemonize no &
redis_pid=$!
for _ in $(seq 100); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
done

# the volume as a JuiceFS dump, streamed out
python3 "$(dirname "$0")/lib/juicefs-tree.py" "$work/tree.json" "$work/bucket/"

wall() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2, t, ":"); s=0; for (i=1; i<=n; i++) s=s*60+t[i]; printf "%.1f", s}' "$1"; }
rss_mb() { awk -F': ' '/Maximum resident set size/ {printf "%d", $2/1024}' "$1"; }
step() { # $1 = name, then the juicefs command line
    local name=$1
    shift
    /usr/bin/time -v -o "$work/$name.time" "$juicefs" "$@" >"$work/$name.log" 2>&1 \
        || { cat "$work/$name.log" >&2; exit 1; }
}
url=redis://127.0.0.1:$port
step generate load "$url/1" "$work/tree.json"
rm -f "$work/tree.json"
step dump-json dump "$url/1" "$work/dump.json"
step load-json load "$url/2" "$work/dump.json"
step dump-binary dump --binary "$url/1" "$work/dump.bin"
step load-binary load --binary "$url/3" "$work/dump.bin"
printf 'juicefs (%s) dump / load of 1,000,101 inodes on Redis; %s cores; load average %s\n' \
    "$("$juicefs" version | awk '{print $3}')" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %-7s %9s %10s %9s %10s %9s %10s\n' engine format generate "dump wall" "dump RSS" "load wall" \
    "load RSS" "dump size"
for format in json binary; do
    file=$work/dump.$([ "$format" = json ] && echo json || echo bin)
    printf '%-9s %-7s %9s %9ss %6s MB %9ss %6s MB %7s MB\n' juicefs "$format" \
        "$([ "$format" = json ] && echo "$(wall "$work/generate.time")s")" \
        "$(wall "$work/dump-$format.time")" "$(rss_mb "$work/dump-$format.time")" \
        "$(wall "$work/load-$format.time")" "$(rss_mb "$work/load-$format.time")" \
        "$(( $(stat -c %s "$file") / 1024 / 1024 ))"
done

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

# the volume as a JuiceFS dump (its format: pkg/meta/dump.go), streamed out
python3 - "$work/tree.json" "$work/bucket/" <<'PY'
import sys
T = 1700000000
out = open(sys.argv[1], 'w', buffering=1 << 20)
def attr(ino, typ, mode, nlink, length):
    return ('{"inode":%d,"type":"%s","mode":%d,"uid":0,"gid":0,"atime":%d,"mtime":%d,"ctime":%d,"nlink":%d,'
            '"length":%d}' % (ino, typ, mode, T, T, T, nlink, length))
files = 100 * 100 * 99
out.write('{\n"Setting": {"Name":"jfsbench","UUID":"5ecc44db-0f8d-4205-bd69-29bdf552b7fe","Storage":"file",'
          '"Bucket":"%s","BlockSize":4096,"Compression":"none","TrashDays":0,"MetaVersion":1,'
          '"MinClientVersion":"1.1.0-A","DirStats":true,"EnableACL":false},\n' % sys.argv[2])
out.write('"Counters": {"usedSpace":%d,"usedInodes":%d,"nextInodes":%d,"nextChunk":%d,"nextSession":0,'
          '"nextTrash":0},\n"Sustained": [],\n"DelFiles": [],\n' % (files * 4096, 1000100, 1000102, files + 1))
out.write('"FSTree": {"attr":%s,"entries":{\n' % attr(1, "directory", 511, 102, 0))
ino, chunk = 2, 1
for a in range(100):
    out.write('%s"a%02d":{"attr":%s,"entries":{\n' % ("," if a else "", a, attr(ino, "directory", 493, 102, 0)))
    ino += 1
    for b in range(100):
        out.write('%s"b%02d":{"attr":%s,"entries":{\n' % ("," if b else "", b, attr(ino, "directory", 493, 2, 0)))
        ino += 1
        entries = []
        for f in range(99):
            entries.append('"f%02d":{"attr":%s,"chunks":[{"index":0,"slices":[{"id":%d,"size":4096,"len":4096}]}]}'
                           % (f, attr(ino, "regular", 420, 1, 4096), chunk))
            ino, chunk = ino + 1, chunk + 1
        out.write(',\n'.join(entries) + '\n}}\n')
    out.write('}}\n')
out.write('}}\n}\n')
PY

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

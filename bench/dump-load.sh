#!/usr/bin/env bash
# strata dump and strata load of an N-inode volume on Redis, PostgreSQL, MariaDB and SQLite, in one run,
# in each dump format (JSON, and binary: Smile with a checksummed trailer) side by side: wall
# time and peak RSS (the whole JVM, from /usr/bin/time -v) of each, the dump's size, and whether
# dump -> load -> dump gives the same bytes. Each format loads into a volume of its own.
#
# The volume is made up by io.strata.meta.dump.TreeGenerator (directories of ~100 entries, three
# levels for a million inodes, 1 % hard links, 1 % symlinks, xattrs on ~2 % of files), written
# through the load path. Redis, PostgreSQL and MariaDB are started here, on free loopback ports,
# with their files in a temporary directory (PostgreSQL as the postgres user when run as root),
# with their default durability settings; SQLite is a file in the same directory.
#
# Usage: bench/dump-load.sh [N] [ENGINE...]   (default: 1000000 inodes; redis postgres mariadb sqlite)
#   STRATA_JAVA_OPTS   JVM options for every step (default: -Xmx256m -XX:+UseSerialGC, as bin/strata
#                      gives dump and load)
#   STRATA_BENCH_DIR   where the servers, databases and dumps go (default: a new dir in /var/tmp)
#   STRATA_BENCH_FORMATS  the formats to run, in order (default: json binary)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000000}
shift || true
engines=("$@")
[ ${#engines[@]} -gt 0 ] || engines=(redis postgres mariadb sqlite)
java_opts=${STRATA_JAVA_OPTS:--Xmx256m -XX:+UseSerialGC}
read -r -a formats <<<"${STRATA_BENCH_FORMATS:-json binary}"
jar=$here/cli/target/strata.jar
if [ ! -f "$jar" ]; then
    echo "building $jar..." >&2
    (cd "$here" && ./mvnw -B -q -DskipTests package -pl cli -am) >&2
fi
for tool in /usr/bin/time redis-server pg_ctl initdb python3; do
    command -v "$tool" >/dev/null || { echo "dump-load.sh: $tool is missing (apt-get install time redis-server postgresql)" >&2; exit 1; }
done

# shellcheck source=bench/lib/mariadb.sh
. "$here/bench/lib/mariadb.sh"

work=${STRATA_BENCH_DIR:-$(mktemp -d /var/tmp/strata-dump-load.XXXXXX)}
mkdir -p "$work"
redis_pid=
pg_data=
as_postgres=()
[ "$(id -u)" = 0 ] && as_postgres=(runuser -u postgres --)
cleanup() {
    [ -n "$redis_pid" ] && kill "$redis_pid" 2>/dev/null || true
    [ -n "$pg_data" ] && "${as_postgres[@]}" pg_ctl -D "$pg_data" -m immediate -w stop >/dev/null 2>&1 || true
    stop_mariadb
    [ -z "${STRATA_BENCH_DIR:-}" ] && rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# java with the bench's options; $1 = /usr/bin/time output file ("" for none)
run_java() {
    local timing=$1
    shift
    # shellcheck disable=SC2086
    if [ -n "$timing" ]; then
        /usr/bin/time -v -o "$timing" java $java_opts "$@"
    else
        java $java_opts "$@"
    fi
}
wall() { # seconds from /usr/bin/time -v's "Elapsed (wall clock) time (h:mm:ss or m:ss): 0:08.12"
    awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2, t, ":"); s=0; for (i=1; i<=n; i++) s=s*60+t[i]; printf "%.1f", s}' "$1"
}
rss_mb() { awk -F': ' '/Maximum resident set size/ {printf "%d", $2/1024}' "$1"; }
cpu() { # user + system seconds of the strata JVM (not the server's): steadier than wall time on a busy machine
    awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$1"
}

start_redis() {
    local port
    port=$(free_port)
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
        --logfile "$work/redis.log" --daemonize no &
    redis_pid=$!
    for _ in $(seq 100); do
        redis-cli -p "$port" ping >/dev/null 2>&1 && break
        sleep 0.1
    done
    a_url=redis://127.0.0.1:$port/1
    redis_port=$port
    target_url() { echo "redis://127.0.0.1:$redis_port/$((2 + $1))"; }
}

start_postgres() {
    local port
    port=$(free_port)
    pg_data=$work/pg
    mkdir -p "$pg_data"
    [ ${#as_postgres[@]} -gt 0 ] && chown postgres "$work" "$pg_data"
    "${as_postgres[@]}" initdb -D "$pg_data" -U strata -E UTF8 --locale=C --auth=trust >"$work/pg-init.log"
    "${as_postgres[@]}" pg_ctl -D "$pg_data" -l "$work/pg.log" -w \
        -o "-p $port -k $work -c listen_addresses=127.0.0.1" start >/dev/null
    for db in a b0 b1 b2; do
        "${as_postgres[@]}" psql -h 127.0.0.1 -p "$port" -U strata -d postgres -q \
            -c "CREATE DATABASE $db ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0"
    done
    a_url="jdbc:postgresql://127.0.0.1:$port/a?user=strata"
    pg_port=$port
    target_url() { echo "jdbc:postgresql://127.0.0.1:$pg_port/b$1?user=strata"; }
}

start_mariadb_engine() {
    start_mariadb "$work/mariadb"
    for db in a b0 b1 b2; do
        mariadb_sql "$work/mariadb" "CREATE DATABASE $db"
    done
    a_url="jdbc:mariadb://127.0.0.1:$mariadb_port/a?user=strata"
    target_url() { echo "jdbc:mariadb://127.0.0.1:$mariadb_port/b$1?user=strata"; }
}

start_sqlite() {
    a_url=sqlite://$work/a.db
    target_url() { echo "sqlite://$work/b$1.db"; }
}

extension() { # the dump's file name picks its format
    case "$1" in
        json) echo json ;;
        binary) echo sdump ;;
        *) echo "dump-load.sh: unknown format $1 (json, binary)" >&2; exit 2 ;;
    esac
}

printf 'strata dump / load of %s inodes; JVM options: %s; %s cores\n' "$n" "$java_opts" "$(nproc)"
printf 'load average before: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %-7s %9s %10s %9s %9s %10s %9s %9s %10s  %s\n' engine format generate "dump wall" "dump CPU" "dump RSS" \
    "load wall" "load CPU" \
    "load RSS" "dump size" "round trip"
for engine in "${engines[@]}"; do
    case "$engine" in
        redis) start_redis ;;
        postgres) start_postgres ;;
        mariadb) start_mariadb_engine ;;
        sqlite) start_sqlite ;;
        *) echo "dump-load.sh: unknown engine $engine (redis, postgres, mariadb, sqlite)" >&2; exit 2 ;;
    esac
    run_java "$work/gen.time" -cp "$jar" io.strata.meta.dump.TreeGenerator "$a_url" "$n" >"$work/gen.log" 2>&1 \
        || { cat "$work/gen.log" >&2; exit 1; }
    generated="$(wall "$work/gen.time")s"
    for i in "${!formats[@]}"; do
        format=${formats[$i]}
        b_url=$(target_url "$i")
        dump=$work/$engine.$(extension "$format")
        run_java "$work/dump.time" -jar "$jar" dump "$a_url" "$dump" >"$work/dump.log" 2>&1 \
            || { cat "$work/dump.log" >&2; exit 1; }
        run_java "$work/load.time" -jar "$jar" load "$b_url" "$dump" >"$work/load.log" 2>&1 \
            || { cat "$work/load.log" >&2; exit 1; }
        again=$work/again.$(extension "$format")
        run_java "" -jar "$jar" dump "$b_url" "$again" >/dev/null 2>&1
        same=$(cmp -s "$dump" "$again" && echo identical || echo DIFFERENT)
        printf '%-9s %-7s %9s %9ss %8ss %6s MB %9ss %8ss %6s MB %7s MB  %s\n' "$engine" "$format" "$generated" \
            "$(wall "$work/dump.time")" "$(cpu "$work/dump.time")" "$(rss_mb "$work/dump.time")" \
            "$(wall "$work/load.time")" "$(cpu "$work/load.time")" \
            "$(rss_mb "$work/load.time")" "$(( $(stat -c %s "$dump") / 1024 / 1024 ))" "$same"
        generated=
        grep -h "warning" "$work/dump.log" "$work/load.log" >&2 || true
        rm -f "$dump" "$again"
    done
    case "$engine" in
        redis) kill "$redis_pid"; wait "$redis_pid" 2>/dev/null || true; redis_pid= ;;
        postgres) "${as_postgres[@]}" pg_ctl -D "$pg_data" -m fast -w stop >/dev/null; pg_data= ;;
        mariadb) stop_mariadb; rm -rf "$work/mariadb" ;;
        sqlite) rm -f "$work"/a.db* "$work"/b*.db* ;;
    esac
done
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"

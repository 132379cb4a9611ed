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
# With JuiceFS at hand (JUICEFS, or juicefs on the PATH), each engine also gets JuiceFS's rows, in the
# same run: a JuiceFS volume of the same shape (100 x 100 directories of 99 files, 1,000,101 inodes,
# bench/lib/juicefs-tree.py, loaded with juicefs load; whatever N is), dumped and loaded again in
# its --binary and JSON formats. "server CPU" is the engine server's (Redis, PostgreSQL's
# processes, MariaDB) during the step: a step's cost is the client's CPU plus that.
#
# Usage: bench/dump-load.sh [N] [ENGINE...]   (default: 1000000 inodes; redis postgres mariadb sqlite)
#   STRATA_JAVA_OPTS   JVM options for every step (default: -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1, as bin/strata
#                      gives dump and load)
#   STRATA_BENCH_DIR   where the servers, databases and dumps go (default: a new dir in /var/tmp)
#   STRATA_BENCH_FORMATS  the formats to run, in order (default: json binary)
#   STRATA_BENCH_JUICEFS_FORMATS  JuiceFS's formats, in order (default: binary json; "" for none)
#   JUICEFS            the juicefs binary (default: juicefs on the PATH, else /tmp/peers/bin/juicefs)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000000}
shift || true
engines=("$@")
[ ${#engines[@]} -gt 0 ] || engines=(redis postgres mariadb sqlite)
java_opts=${STRATA_JAVA_OPTS:--Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1}
read -r -a formats <<<"${STRATA_BENCH_FORMATS:-json binary}"
read -r -a juicefs_formats <<<"${STRATA_BENCH_JUICEFS_FORMATS-binary json}"
juicefs=${JUICEFS:-$(command -v juicefs || echo /tmp/peers/bin/juicefs)}
if [ ${#juicefs_formats[@]} -gt 0 ] && [ ! -x "$juicefs" ]; then
    echo "dump-load.sh: no juicefs binary ($juicefs): JuiceFS's rows are left out" >&2
    juicefs_formats=()
fi
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
# the engine server's CPU so far, in clock ticks: Redis's and MariaDB's process; PostgreSQL's postmaster
# with its children alive and exited (backends, WAL writer, checkpointer); nothing for SQLite
server_pid=
server_ticks() {
    [ -n "$server_pid" ] || { echo 0; return; }
    local total=0 pid fields
    for pid in $server_pid $(pgrep -P "$server_pid" 2>/dev/null || true); do
        # fields after the command's closing parenthesis: utime is the 12th, stime, cutime, cstime follow
        fields=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null) || continue
        read -r -a f <<<"$fields"
        total=$((total + f[11] + f[12]))
        [ "$pid" = "$server_pid" ] && total=$((total + f[13] + f[14]))
    done
    echo "$total"
}
ticks=$(getconf CLK_TCK)
seconds() { awk -v t="$1" -v hz="$ticks" 'BEGIN {printf "%.1f", t / hz}'; }

start_redis() {
    local port
    port=$(free_port)
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
        --logfile "$work/redis.log" --daemonize no &
    redis_pid=$!
    server_pid=$redis_pid
    for _ in $(seq 100); do
        redis-cli -p "$port" ping >/dev/null 2>&1 && break
        sleep 0.1
    done
    a_url=redis://127.0.0.1:$port/1
    redis_port=$port
    target_url() { echo "redis://127.0.0.1:$redis_port/$((2 + $1))"; }
    juicefs_url() { echo "redis://127.0.0.1:$redis_port/$((10 + $1))"; }
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
    server_pid=$(head -1 "$pg_data/postmaster.pid")
    for db in a b0 b1 b2 j0 j1 j2; do
        "${as_postgres[@]}" psql -h 127.0.0.1 -p "$port" -U strata -d postgres -q \
            -c "CREATE DATABASE $db ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0"
    done
    a_url="jdbc:postgresql://127.0.0.1:$port/a?user=strata"
    pg_port=$port
    target_url() { echo "jdbc:postgresql://127.0.0.1:$pg_port/b$1?user=strata"; }
    juicefs_url() { echo "postgres://strata@127.0.0.1:$pg_port/j$1?sslmode=disable"; }
}

start_mariadb_engine() {
    start_mariadb "$work/mariadb"
    server_pid=$mariadb_pid
    for db in a b0 b1 b2 j0 j1 j2; do
        mariadb_sql "$work/mariadb" "CREATE DATABASE $db"
    done
    a_url="jdbc:mariadb://127.0.0.1:$mariadb_port/a?user=strata"
    target_url() { echo "jdbc:mariadb://127.0.0.1:$mariadb_port/b$1?user=strata"; }
    juicefs_url() { echo "mysql://strata@(127.0.0.1:$mariadb_port)/j$1"; }
}

start_sqlite() {
    a_url=sqlite://$work/a.db
    target_url() { echo "sqlite://$work/b$1.db"; }
    juicefs_url() { echo "sqlite3://$work/j$1.db"; }
}

extension() { # the dump's file name picks its format
    case "$1" in
        json) echo json ;;
        binary) echo sdump ;;
        *) echo "dump-load.sh: unknown format $1 (json, binary)" >&2; exit 2 ;;
    esac
}

# a step run under /usr/bin/time -v, with the server's CPU during it in $work/$name.server
step() { # $1 = name, $2 = log, then the command line
    local name=$1 log=$2 before
    shift 2
    before=$(server_ticks)
    /usr/bin/time -v -o "$work/$name.time" "$@" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
    sleep 0.2 # PostgreSQL's backends exit after the client: their CPU counts once they have
    echo $(($(server_ticks) - before)) >"$work/$name.server"
}
row() { # $1 = engine, $2 = format, $3 = generate, $4 = dump file, $5 = round trip
    printf '%-9s %-15s %9s %9ss %8ss %8ss %6s MB %9ss %8ss %8ss %6s MB %7s MB  %s\n' "$1" "$2" "$3" \
        "$(wall "$work/dump.time")" "$(cpu "$work/dump.time")" "$(seconds "$(cat "$work/dump.server")")" \
        "$(rss_mb "$work/dump.time")" \
        "$(wall "$work/load.time")" "$(cpu "$work/load.time")" "$(seconds "$(cat "$work/load.server")")" \
        "$(rss_mb "$work/load.time")" "$(( $(stat -c %s "$4") / 1024 / 1024 ))" "$5"
}

printf 'strata dump / load of %s inodes; JVM options: %s; %s cores\n' "$n" "$java_opts" "$(nproc)"
[ ${#juicefs_formats[@]} -gt 0 ] && printf 'juicefs %s: 1,000,101 inodes\n' "$("$juicefs" version | awk '{print $3}')"
printf 'load average before: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %-15s %9s %10s %9s %9s %9s %10s %9s %9s %9s %10s  %s\n' engine format generate "dump wall" "dump CPU" \
    "server" "dump RSS" "load wall" "load CPU" "server" "load RSS" "dump size" "round trip"
for engine in "${engines[@]}"; do
    case "$engine" in
        redis) start_redis ;;
        postgres) start_postgres ;;
        mariadb) start_mariadb_engine ;;
        sqlite) start_sqlite ;;
        *) echo "dump-load.sh: unknown engine $engine (redis, postgres, mariadb, sqlite)" >&2; exit 2 ;;
    esac
    # shellcheck disable=SC2086
    step gen "$work/gen.log" java $java_opts -cp "$jar" io.strata.meta.dump.TreeGenerator "$a_url" "$n"
    generated="$(wall "$work/gen.time")s"
    for i in "${!formats[@]}"; do
        format=${formats[$i]}
        b_url=$(target_url "$i")
        dump=$work/$engine.$(extension "$format")
        # shellcheck disable=SC2086
        step dump "$work/dump.log" java $java_opts -jar "$jar" dump "$a_url" "$dump"
        # shellcheck disable=SC2086
        step load "$work/load.log" java $java_opts -jar "$jar" load "$b_url" "$dump"
        again=$work/again.$(extension "$format")
        run_java "" -jar "$jar" dump "$b_url" "$again" >/dev/null 2>&1
        same=$(cmp -s "$dump" "$again" && echo identical || echo DIFFERENT)
        row "$engine" "strata $format" "$generated" "$dump" "$same"
        generated=
        grep -h "warning" "$work/dump.log" "$work/load.log" >&2 || true
        rm -f "$dump" "$again"
    done
    if [ ${#juicefs_formats[@]} -gt 0 ]; then
        python3 "$here/bench/lib/juicefs-tree.py" "$work/tree.json" "$work/bucket/"
        step gen "$work/gen.log" "$juicefs" load "$(juicefs_url 0)" "$work/tree.json"
        rm -f "$work/tree.json"
        generated="$(wall "$work/gen.time")s"
        for i in "${!juicefs_formats[@]}"; do
            format=${juicefs_formats[$i]}
            flag=()
            [ "$format" = binary ] && flag=(--binary)
            dump=$work/juicefs.$format
            step dump "$work/dump.log" "$juicefs" dump "${flag[@]}" "$(juicefs_url 0)" "$dump"
            step load "$work/load.log" "$juicefs" load "${flag[@]}" "$(juicefs_url $((1 + i)))" "$dump"
            row "$engine" "juicefs $format" "$generated" "$dump" "-"
            generated=
            rm -f "$dump"
        done
    fi
    case "$engine" in
        redis) kill "$redis_pid"; wait "$redis_pid" 2>/dev/null || true; redis_pid= ;;
        postgres) "${as_postgres[@]}" pg_ctl -D "$pg_data" -m fast -w stop >/dev/null; pg_data= ;;
        mariadb) stop_mariadb; rm -rf "$work/mariadb" ;;
        sqlite) rm -f "$work"/a.db* "$work"/b*.db* "$work"/j*.db* ;;
    esac
    server_pid=
done
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"

#!/usr/bin/env bash
# Metadata operations per engine, side by side in one JMH run: create, stat (heap cache hit and
# miss), readdir of 10k entries, rename — memory, SQLite, PostgreSQL, MariaDB and Redis. Starts its
# own redis-server, PostgreSQL and MariaDB (Debian packages redis-server, postgresql,
# mariadb-server) on free loopback ports, each with its default durability.
#
# Usage: bench/metadata-bench.sh [extra JMH arguments]   (as root; builds the benchmark jar if missing)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jar=$here/jmh/target/strata-benchmarks.jar
[ -f "$jar" ] || (cd "$here" && ./mvnw -B -q -DskipTests package -pl jmh -am)

# shellcheck source=bench/lib/mariadb.sh
. "$here/bench/lib/mariadb.sh"

work=$(mktemp -d /var/tmp/strata-metabench.XXXXXX)
chmod 755 "$work"   # PostgreSQL runs as the postgres user and must reach its data dir
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
redis_port=$(free_port)
pg_port=$(free_port)

cleanup() {
    redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
    runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
    stop_mariadb
    rm -rf "$work"
}
trap cleanup EXIT

redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --dir "$work" --logfile "$work/redis.log"
mkdir -p "$work/pg" && chown postgres "$work/pg"
runuser -u postgres -- "$pgbin/initdb" -D "$work/pg" -E UTF8 --no-locale -A trust >/dev/null
runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w \
    -o "-p $pg_port -k $work/pg -c listen_addresses=127.0.0.1 -c fsync=on" start >/dev/null
runuser -u postgres -- "$pgbin/createdb" -h 127.0.0.1 -p "$pg_port" strata
start_mariadb "$work/mariadb"
mariadb_sql "$work/mariadb" "CREATE DATABASE strata"

java -jar "$jar" MetaStoreBenchmark \
    -jvmArgsAppend "-Dstrata.bench.redis=redis://127.0.0.1:$redis_port/0 -Dstrata.bench.postgres=jdbc:postgresql://127.0.0.1:$pg_port/strata?user=postgres -Dstrata.bench.mariadb=jdbc:mariadb://127.0.0.1:$mariadb_port/strata?user=strata" \
    "$@"

# Sourced by the bench scripts: starts a MariaDB server (Debian's mariadb-server) on a free
# loopback port with its data directory under $1, as root with --user=root, its defaults
# (InnoDB, a flush of the log at every commit, no binary log), and a user strata without a
# password on 127.0.0.1 that may create databases.
# Sets mariadb_pid and mariadb_port; stop_mariadb stops it.
start_mariadb() {
    local dir=$1
    command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || {
        echo "mariadbd is missing (apt-get install mariadb-server)" >&2; return 1; }
    local mariadbd=/usr/sbin/mariadbd
    command -v mariadbd >/dev/null && mariadbd=$(command -v mariadbd)
    mkdir -p "$dir"
    mariadb-install-db --no-defaults --datadir="$dir/data" --user=root --auth-root-authentication-method=socket \
        --skip-test-db >"$dir/install.log" 2>&1 || { cat "$dir/install.log" >&2; return 1; }
    printf "CREATE USER 'strata'@'127.0.0.1';\nGRANT ALL PRIVILEGES ON *.* TO 'strata'@'127.0.0.1';\n" >"$dir/init.sql"
    mariadb_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$mariadbd" --no-defaults --datadir="$dir/data" --user=root --port="$mariadb_port" --bind-address=127.0.0.1 \
        --socket="$dir/sock" --pid-file="$dir/pid" --init-file="$dir/init.sql" --skip-name-resolve \
        --log-error="$dir/server.log" &
    mariadb_pid=$!
    for _ in $(seq 300); do
        mariadb-admin --no-defaults --socket="$dir/sock" ping >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "mariadbd did not start: $(tail -5 "$dir/server.log")" >&2
    return 1
}

# Runs SQL as the server's root over its socket.
mariadb_sql() {
    local dir=$1
    shift
    mariadb --no-defaults --socket="$dir/sock" -e "$*"
}

stop_mariadb() {
    [ -n "${mariadb_pid:-}" ] || return 0
    kill "$mariadb_pid" 2>/dev/null || true
    wait "$mariadb_pid" 2>/dev/null || true
    mariadb_pid=
}

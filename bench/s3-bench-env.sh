# Shared by bench/s3-readahead.sh and bench/s3-page-cache.sh (sourced, not run): checks the tools,
# builds what is missing, starts S3Proxy in its own process behind the delaying TCP proxy
# (DELAY_MS each way), uploads the measured object and two warm-up objects of the same size, and
# defines mount_fresh, unmount, drop_caches, dd_mib_s, fio_iops, ratio and median. Cleans up on
# any exit. Expects $1 (the delay) in "$@" of the sourcing script.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
delay=${1:-10}
size_mib=${STRATA_BENCH_SIZE_MIB:-1024}
fio_seconds=${STRATA_BENCH_FIO_SECONDS:-10}
rounds=${STRATA_BENCH_ROUNDS:-1}
warmups=${STRATA_BENCH_WARMUPS:-4}
link_mib_s=${STRATA_BENCH_LINK_MIBS:-0}
mvn_flags=${STRATA_MVN_FLAGS:-}
strata=$here/bin/strata
bucket=bench
key=object.bin

[ "$(id -u)" = 0 ] || { echo "${0##*/}: run as root (drop_caches, FUSE)" >&2; exit 1; }
for tool in fio dd python3 java fusermount; do
    command -v "$tool" >/dev/null || { echo "${0##*/}: $tool is missing" >&2; exit 1; }
done

work=${STRATA_BENCH_DIR:-$(mktemp -d /var/tmp/strata-s3-readahead.XXXXXX)}
mkdir -p "$work"
mnt=$work/mnt
mkdir -p "$mnt"
server_pid=
proxy_pid=
cleanup() {
    local status=$?
    if grep -qs " $mnt fuse" /proc/mounts; then
        "$strata" umount "$mnt" >/dev/null 2>&1 || fusermount -u -z "$mnt" 2>/dev/null || true
    fi
    for pid in $proxy_pid $server_pid; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in $proxy_pid $server_pid; do
        wait "$pid" 2>/dev/null || true
    done
    [ -z "${STRATA_BENCH_DIR:-}" ] && rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- build: the CLI jar, and the bench classes with their classpath (integration-tests' test scope)
bench_classes=$here/integration-tests/target/test-classes
if [ ! -f "$here/cli/target/strata.jar" ] || [ ! -f "$bench_classes/io/strata/it/bench/DelayProxy.class" ]; then
    echo "building (first run)..." >&2
    # shellcheck disable=SC2086
    (cd "$here" && ./mvnw -B -q $mvn_flags -DskipTests install -pl integration-tests -am) >&2
fi
# shellcheck disable=SC2086
(cd "$here" && ./mvnw -B -q $mvn_flags -pl integration-tests dependency:build-classpath \
    -Dmdep.outputFile="$work/classpath.txt" -Dmdep.includeScope=test) >&2
cp="$(cat "$work/classpath.txt"):$bench_classes"

# Credentials of this run's server; the mount and the SDK read the same variables.
STRATA_S3A_ACCESSKEYID=bench-$RANDOM$RANDOM
STRATA_S3A_SECRETKEY=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
export STRATA_S3A_ACCESSKEYID STRATA_S3A_SECRETKEY

await_file() { # file pid what
    for _ in $(seq 300); do
        [ -s "$1" ] && return 0
        kill -0 "$2" 2>/dev/null || { echo "${0##*/}: $3 exited; see $work/$3.log" >&2; exit 1; }
        sleep 0.1
    done
    echo "${0##*/}: $3 did not start; see $work/$3.log" >&2
    exit 1
}

java -cp "$cp" io.strata.it.bench.S3BenchServer "$work/blobs" "$work/server.port" >"$work/server.log" 2>&1 &
server_pid=$!
await_file "$work/server.port" "$server_pid" server
server_port=$(cat "$work/server.port")
java -cp "$cp" io.strata.it.bench.DelayProxy "127.0.0.1:$server_port" "$delay" "$work/proxy.port" "$link_mib_s" \
    >"$work/proxy.log" 2>&1 &
proxy_pid=$!
await_file "$work/proxy.port" "$proxy_pid" proxy
endpoint=http://127.0.0.1:$(cat "$work/proxy.port")

echo "uploading three $size_mib MiB objects (measured, two for warm-up)..." >&2
expected_sha=$(java -cp "$cp" io.strata.it.bench.BenchObjects put "http://127.0.0.1:$server_port" "$bucket" "$key" \
    "$size_mib")
for w in 1 2; do
    java -cp "$cp" io.strata.it.bench.BenchObjects put "http://127.0.0.1:$server_port" "$bucket" "warmup-$w.bin" \
        "$size_mib" >/dev/null
done
server_copy=$work/blobs/$bucket/$key
[ -f "$server_copy" ] || { echo "${0##*/}: no $server_copy: the blob store's layout changed" >&2; exit 1; }

# A fresh mount reads warm-up objects before it is measured ($3 of them, default $warmups), untimed,
# so that the timed read meets a daemon whose JIT has compiled the read path, as the plain
# download's warm-up rounds do for its client: both sides read as many GiB before the timed one.
# The two warm-up objects alternate, each larger than the default page store, so that every
# warm-up read goes to S3 and none is served by the page store.
mount_fresh() { # name [extra -o options] [warm-up reads]
    local state=$work/state-$1
    rm -rf "$state"
    STRATA_STATE_DIR=$state "$strata" mount "s3://$bucket" "$mnt" \
        -o "s3.endpoint=$endpoint,s3.path_style_access=true,s3.region=us-east-1${2:+,$2}" >/dev/null
    ls "$mnt" >/dev/null
    for w in $(seq "${3:-$warmups}"); do
        echo 1 >/proc/sys/vm/drop_caches
        cat "$mnt/warmup-$((2 - w % 2)).bin" >/dev/null
    done
}
unmount() {
    "$strata" umount "$mnt" >/dev/null
}
drop_caches() { # and read the server's copy of the object back into memory
    sync
    echo 3 >/proc/sys/vm/drop_caches
    cat "$server_copy" >/dev/null
}
dd_mib_s() { # file: MiB/s of one sequential read
    drop_caches
    dd if="$1" of=/dev/null bs=1M 2>&1 |
        awk '/copied/ {for (i = 1; i <= NF; i++) if ($i == "s," || $i == "s") secs = $(i - 1); printf "%.1f", $1 / 1048576 / secs}'
}
fio_iops() { # file bs jobs
    fio --name=randread --filename="$1" --rw=randread --bs="$2" --numjobs="$3" --direct=1 --ioengine=psync \
        --readonly --runtime="$fio_seconds" --time_based --group_reporting --output-format=json 2>/dev/null |
        python3 -c 'import json, sys; print("%.0f" % json.load(sys.stdin)["jobs"][0]["read"]["iops"])'
}
ratio() { python3 -c "import sys; print('%.2f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# The sequential measurements, interleaved round by round so that a change in the machine's load
# hits all of them alike; each row reports its median over the rounds.

#!/usr/bin/env bash
# POSIX conformance: pjdfstest (the Rust rewrite of the pjd file system test suite, crate
# `pjdfstest` on crates.io) run as root inside a Strata mount mounted with `-o allow_other`, so
# that the test cases that switch to other users can reach the mount.
#
#   bench/pjdfstest.sh [local|s3] [PATTERN...]
#
#   local (default)  mounts an empty local directory
#   s3               mounts s3://pjdfstest/fs on S3Proxy (in-memory store) started here, as the S3
#                    bench scripts do (integration-tests' S3BenchServer)
#   PATTERN...       run only the test cases whose name contains one of them (pjdfstest's filter)
#
# Prints one line per test case (ok, FAIL, XFAIL = a failure listed in
# bench/pjdfstest-known-failures.txt, skip) with the first lines of each failure, then
# `pjdfstest: N passed, N failed, N skipped`, where "failed" counts only the failures that are not
# listed. Exits non-zero if any test case fails that is not listed, or if the suite did not run to
# its end. A listed test case that passes is reported (remove it from the list) but is no error.
#
# Environment:
#   STRATA_PJDFS_OPTS     extra mount options, comma-separated (e.g. attr_timeout=0,entry_timeout=0)
#   STRATA_PJDFS_CACHE    where pjdfstest is installed (default /var/cache/strata-pjdfstest)
#   PJDFSTEST             a pjdfstest binary to use instead of installing one
#   STRATA_PJDFS_TIMEOUT  seconds the whole suite may take (default 1800)
#   STRATA_PJDFS_KEEP=1   keep the work directory (raw output, daemon log) under /var/tmp
#   STRATA_MVN_FLAGS      extra Maven flags for the builds (e.g. -o)
# Other STRATA_<KEY> variables reach the mount as options, as for any `strata mount`.
#
# Needs root, /dev/fuse, libfuse2 and cargo (rustup's ~/.cargo/bin is looked at too); installs
# libacl1-dev with apt-get when it is missing (pjdfstest links libacl).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
mode=local
case "${1:-}" in
    local | s3) mode=$1; shift ;;
    -h | --help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
patterns=("$@")
strata=$here/bin/strata
known_list=$here/bench/pjdfstest-known-failures.txt
pjdfs_version=0.2.2
cache=${STRATA_PJDFS_CACHE:-/var/cache/strata-pjdfstest}
timeout_s=${STRATA_PJDFS_TIMEOUT:-1800}
mvn_flags=${STRATA_MVN_FLAGS:-}
extra_opts=${STRATA_PJDFS_OPTS:-}
me=${0##*/}

[ "$(id -u)" = 0 ] || { echo "$me: run as root (the suite switches users and makes device nodes)" >&2; exit 1; }
[ -e /dev/fuse ] || { echo "$me: /dev/fuse is missing" >&2; exit 1; }
for tool in java fusermount timeout awk; do
    command -v "$tool" >/dev/null || { echo "$me: $tool is missing" >&2; exit 1; }
done

# ---- pjdfstest: installed once with cargo into $cache (about a minute at -j2), reused after
pjdfstest=${PJDFSTEST:-$cache/bin/pjdfstest}
if [ -z "${PJDFSTEST:-}" ] && ! "$pjdfstest" --version 2>/dev/null | grep -qx "pjdfstest $pjdfs_version"; then
    cargo=$(command -v cargo || true)
    [ -n "$cargo" ] || [ ! -x "$HOME/.cargo/bin/cargo" ] || cargo=$HOME/.cargo/bin/cargo
    [ -n "$cargo" ] || { echo "$me: cargo is missing: it builds pjdfstest from crates.io" >&2; exit 1; }
    if ! dpkg -s libacl1-dev >/dev/null 2>&1; then
        echo "$me: installing libacl1-dev (pjdfstest links libacl)" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libacl1-dev >/dev/null
    fi
    echo "$me: building pjdfstest $pjdfs_version from crates.io into $cache (first run)..." >&2
    # --locked: the crate's own Cargo.lock, so the build does not change when its dependencies
    # publish new versions.
    "$cargo" install --quiet --locked --jobs 2 --version "$pjdfs_version" --root "$cache" pjdfstest >&2
fi
"$pjdfstest" --version >/dev/null

# ---- the work directory: world-searchable, since the suite works in it as other users too
work=$(mktemp -d /var/tmp/strata-pjdfstest.XXXXXX)
chmod 755 "$work"
mnt=$work/mnt
mkdir -p "$mnt" "$work/other-fs"
server_pid=
cleanup() {
    local status=$?
    if grep -qs " $mnt fuse" /proc/mounts; then
        "$strata" umount "$mnt" >/dev/null 2>&1 || fusermount -u -z "$mnt" 2>/dev/null || true
    fi
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ "${STRATA_PJDFS_KEEP:-}" = 1 ]; then
        echo "$me: kept $work" >&2
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the mount
opts="allow_other,state_dir=$work/state${extra_opts:+,$extra_opts}"
if [ "$mode" = s3 ]; then
    # The CLI jar, and integration-tests' S3BenchServer and BenchObjects with their test classpath,
    # from one reactor build (the relative outputFile lands in each module's target/).
    # shellcheck disable=SC2086
    (cd "$here" && ./mvnw -B -q $mvn_flags -DskipTests -pl integration-tests -am package \
        dependency:build-classpath -Dmdep.outputFile=target/pjdfstest-classpath.txt -Dmdep.includeScope=test) >&2
    cp="$(cat "$here/integration-tests/target/pjdfstest-classpath.txt"):$here/integration-tests/target/test-classes"

    # A key pair for this run; S3BenchServer and the mount read the same variables.
    STRATA_S3A_ACCESSKEYID=pjdfstest-$RANDOM$RANDOM
    STRATA_S3A_SECRETKEY=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
    export STRATA_S3A_ACCESSKEYID STRATA_S3A_SECRETKEY
    # jclouds' in-memory store: its directory-backed stores answer a HEAD of `d` when the marker
    # `d/` exists, which makes every mkdir under a directory fail (ENOTDIR). The in-memory store
    # holds at most 2 GiB per object (see the known-failures list).
    java -cp "$cp" io.strata.it.bench.S3BenchServer "$work/blobs" "$work/server.port" transient \
        >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 300); do
        [ -s "$work/server.port" ] && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; echo "$me: S3Proxy exited" >&2; exit 1; }
        sleep 0.1
    done
    [ -s "$work/server.port" ] || { echo "$me: S3Proxy did not start" >&2; exit 1; }
    endpoint=http://127.0.0.1:$(cat "$work/server.port")
    # BenchObjects creates the bucket; its 1 MiB object lies outside the mounted prefix.
    java -cp "$cp" io.strata.it.bench.BenchObjects put "$endpoint" pjdfstest seed 1 >/dev/null
    source_uri=s3://pjdfstest/fs
    opts="s3.endpoint=$endpoint,s3.path_style_access=true,s3.region=us-east-1,$opts"
else
    mkdir "$work/src"
    source_uri=$work/src
fi
if ! "$strata" mount "$source_uri" "$mnt" -o "$opts" >&2; then
    tail -n 30 "$work"/state/logs/*.log >&2 2>/dev/null || true
    exit 1
fi

# ---- the suite
# Opt-in features that Strata has (posix_fallocate over a directory only: an object store has no
# space to reserve, and refuses fallocate past a file's end, docs/SEMANTICS.md); a second file
# system for the EXDEV cases (the work directory);
# two unprivileged users that every Debian system has (the suite's default second user, `tests`,
# would have to be created). The EROFS cases stay skipped: they remount the file system read-only
# with mount(8), which for a FUSE mount runs mount.fuse3, and that cannot remount it.
fallocate_feature="posix_fallocate = {}"
[ "$mode" = s3 ] && fallocate_feature=""
cat >"$work/pjdfstest.toml" <<EOF
[features]
${fallocate_feature}
utime_now = {}
utimensat = {}
rename_ctime = {}

[settings]
naptime = 0.01
allow_remount = false

[dummy_auth]
entries = [["nobody", "nogroup"], ["daemon", "daemon"]]
EOF
echo "$me: pjdfstest $pjdfs_version on $source_uri mounted at $mnt -o $opts" >&2
start=$(date +%s)
status=0
(cd / && NO_COLOR=1 RUST_BACKTRACE=0 timeout -k 10 "$timeout_s" "$pjdfstest" -c "$work/pjdfstest.toml" \
    -p "$mnt" -s "$work/other-fs" "${patterns[@]}") >"$work/pjdfstest.out" 2>&1 || status=$?
elapsed=$(($(date +%s) - start))
"$strata" umount "$mnt" >/dev/null

# ---- the report
# pjdfstest prints `NAME <padding> ok|FAILED|skipped`, then, for a failure or a skip, lines that
# start with a tab (the panic message or the skip's reason). One TSV row per test case:
# status, name, the first three lines of its message.
results=$work/results.tsv
awk '
    function flush() { if (name != "") print status "\t" name "\t" msg; name = ""; msg = ""; lines = 0 }
    match($0, /^[A-Za-z0-9_]+(::[A-Za-z0-9_]+)+ +(ok|FAILED|skipped|PASSED UNEXPECTEDLY|failed as expected)$/) {
        flush()
        name = $1
        status = $0; sub(/^[^ ]+ +/, "", status)
        next
    }
    /^Summary:/ { flush(); next }
    name != "" && lines < 3 && /[^ \t]/ {
        line = $0; gsub(/^[ \t]+|[ \t]+$/, "", line); gsub(/\t/, " ", line)
        msg = msg (lines ? " / " : "") substr(line, 1, 140); lines++
    }
    END { flush() }
' "$work/pjdfstest.out" >"$results"

# The list: `[local:|s3:]NAME  # reason`; no prefix means both modes.
declare -A known=()
if [ -f "$known_list" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
        entry=${line%%#*}
        entry=${entry//[[:space:]]/}
        [ -n "$entry" ] || continue
        reason=${line#*#}
        [ "$reason" != "$line" ] || reason=
        case "$entry" in
            local:* | s3:*) [ "${entry%%:*}" = "$mode" ] || continue; entry=${entry#*:} ;;
        esac
        known[$entry]=${reason#"${reason%%[![:space:]]*}"}
    done <"$known_list"
fi

passed=0 failed=0 xfailed=0 skipped=0 fixed=()
while IFS=$'\t' read -r st name msg; do
    case "$st" in
        ok)
            passed=$((passed + 1))
            printf 'ok     %s\n' "$name"
            [ -z "${known[$name]+x}" ] || fixed+=("$name")
            ;;
        skipped)
            skipped=$((skipped + 1))
            printf 'skip   %s  (%s)\n' "$name" "$msg"
            ;;
        *)
            if [ -n "${known[$name]+x}" ]; then
                xfailed=$((xfailed + 1))
                printf 'XFAIL  %s  [%s]  (known: %s)\n' "$name" "$msg" "${known[$name]}"
            else
                failed=$((failed + 1))
                printf 'FAIL   %s  [%s]\n' "$name" "$msg"
            fi
            ;;
    esac
done <"$results"

# Per syscall (the first part of the names, as the original suite's test directories): counts.
echo
printf '%-16s %7s %10s %10s  (failed: listed or not)\n' syscall ok failed skipped
awk -F'\t' '
    { split($2, part, "::"); g = part[1]; groups[g] = 1
      if ($1 == "ok") ok[g]++; else if ($1 == "skipped") sk[g]++; else bad[g]++ }
    END { for (g in groups) printf "%-16s %7d %10d %10d\n", g, ok[g], bad[g], sk[g] }
' "$results" | sort
echo
echo "pjdfstest $pjdfs_version, $mode mount (-o $opts): $((passed + failed + xfailed + skipped)) test cases in ${elapsed}s"
if [ "$xfailed" -gt 0 ]; then
    echo "$xfailed known failures (listed in bench/pjdfstest-known-failures.txt)"
fi
for name in "${fixed[@]}"; do
    echo "listed as a known failure but passes now: $name (remove it from bench/pjdfstest-known-failures.txt)"
done
if ! grep -q '^Summary:' "$work/pjdfstest.out"; then
    # A panic outside a test case (e.g. its temporary directory could not be made), or the timeout.
    echo "$me: pjdfstest did not finish (exit status $status); its last lines:" >&2
    tail -n 20 "$work/pjdfstest.out" >&2
    failed=$((failed + 1))
fi
echo "pjdfstest: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# strata:// against S3A (hadoop-aws), in one run, on one S3 server: a Spark job in local mode reads
# the same Parquet table (>= 1 GiB) twice through each (a full scan with an aggregate over every
# column), and lists the same 10,000-file table through each. Every step is a fresh Spark JVM
# (spark-submit of bench/spark/strata_vs_s3a.py), started after the kernel's page cache is dropped;
# the time is the step's query alone (printed by the driver). Prints one markdown table with the
# ratios S3A time / strata time (> 1: strata is faster).
#
# The S3 server is the FUSE benchmark harness's (shared/bench: MinIO in its own network namespace,
# behind a delay line; S3Proxy without MinIO): started here with S3_DELAY_MS (default 0) unless it
# is up, and stopped at the end if started here (KEEP_S3=1 keeps it).
#
# Spark is PySpark from PyPI (4.3.0: Hadoop 3.5.0 inside) in a venv; S3A is hadoop-aws of the same
# Hadoop with the AWS SDK bundle it names, from Maven Central; strata:// is hadoop/target/strata-hadoop.jar.
# Both with their defaults but for what points them at the server: S3A path-style on plain HTTP,
# strata:// a metastore (SQLite, under the work directory) formatted over the same bucket prefix,
# its page cache in the work directory (emptied before the first read, kept for the second, as a
# job gets it on a node). Credentials come from the environment (AWS_ACCESS_KEY_ID...), for both.
#
# Usage: bench/spark-s3a.sh
#   ROWS (1200000: ~1.2 GiB of Parquet), FILES (16), LIST_FILES (10000)
#   SPARK_VENV   the venv with pyspark (default /var/tmp/strata-spark-venv; made here if missing)
#   BENCH_HARNESS  the harness directory (default: shared/bench beside the checkout)
#   STRATA_BENCH_DIR  work directory (default /var/tmp/strata-spark-bench): data, metastore, cache
#   REGENERATE=1  upload the tables again even if they are in the bucket
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
harness=${BENCH_HARNESS:-$(cd "$here/.." && pwd)/shared/bench}
[ -x "$harness/s3up.sh" ] || { echo "spark-s3a.sh: no harness at $harness (set BENCH_HARNESS)" >&2; exit 1; }
rows=${ROWS:-1200000}
files=${FILES:-16}
list_files=${LIST_FILES:-10000}
venv=${SPARK_VENV:-/var/tmp/strata-spark-venv}
work=${STRATA_BENCH_DIR:-/var/tmp/strata-spark-bench}
pyspark_version=4.3.0
hadoop_version=3.5.0
bucket=sparkbench
prefix=spark-bench
driver=$here/bench/spark/strata_vs_s3a.py
mkdir -p "$work"

log() { echo "[$(date +%T)] $*" >&2; }
# upload DIR S3_URI: DIR's files, its _SUCCESS last (its presence means the table is complete). The
# aws CLI (v1) against MinIO now and then fails a multipart upload ('ETag'); sync sends again only
# what is missing, so a few rounds finish the copy.
upload() {
    local round
    for round in 1 2 3 4; do
        if s3cli s3 sync --only-show-errors --exclude _SUCCESS "$1" "$2" >&2; then
            s3cli s3 cp --only-show-errors "$1/_SUCCESS" "$2/_SUCCESS" >&2
            return 0
        fi
        log "upload of $1 incomplete (round $round), again"
    done
    return 1
}

# ---- tools: PySpark, S3A's jars, the adapter's jar ----
if [ ! -x "$venv/bin/spark-submit" ]; then
    log "installing pyspark $pyspark_version into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "pyspark==$pyspark_version"
fi
export PATH="$venv/bin:$PATH" PYSPARK_PYTHON="$venv/bin/python" PYSPARK_DRIVER_PYTHON="$venv/bin/python"
s3a_jars=$work/s3a-jars
if ! ls "$s3a_jars"/hadoop-aws-*.jar >/dev/null 2>&1; then
    log "fetching hadoop-aws $hadoop_version and the AWS SDK bundle it names"
    mkdir -p "$work/s3a-pom"
    cat > "$work/s3a-pom/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>local</groupId><artifactId>s3a-jars</artifactId><version>1</version>
  <dependencies><dependency><groupId>org.apache.hadoop</groupId><artifactId>hadoop-aws</artifactId><version>$hadoop_version</version></dependency></dependencies>
</project>
POM
    "$here/mvnw" -B -q -f "$work/s3a-pom/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
        -DoutputDirectory="$s3a_jars" >&2
fi
strata_jar=$here/hadoop/target/strata-hadoop.jar
if [ ! -f "$strata_jar" ]; then
    log "building $strata_jar"
    (cd "$here" && ./mvnw -B -q -DskipTests package -pl hadoop,cli -am) >&2
fi
[ -f "$here/cli/target/strata.jar" ] || (cd "$here" && ./mvnw -B -q -DskipTests package -pl cli -am) >&2

# ---- the S3 server ----
started_s3=0
if ! ip netns list | grep -qw s3bench; then
    S3_DELAY_MS=${S3_DELAY_MS:-0} "$harness/s3up.sh" >&2
    started_s3=1
fi
# shellcheck source=/dev/null
. "$harness/lib/common.sh"   # S3_ENDPOINT, AWS_* credentials of the running server, s3cli
cleanup() { [ "$started_s3" = 1 ] && [ "${KEEP_S3:-0}" != 1 ] && "$harness/s3down.sh" >&2 || true; }
trap cleanup EXIT
s3cli s3api head-bucket --bucket "$bucket" >/dev/null 2>&1 || s3cli s3 mb "s3://$bucket" >&2
delay=$(awk '{print $1}' "$BENCH_STATE/delay_ms" 2>/dev/null || echo "?") # "OUT BACK" since s3delay.sh took two

# ---- the tables: generated locally by Spark, uploaded with the aws CLI (the big one's local copy
# is kept for the floor row) ----
big=$prefix/big-$rows-$files
many=$prefix/many-$list_files
if [ "${REGENERATE:-0}" = 1 ] || ! s3cli s3 ls "s3://$bucket/$big/_SUCCESS" >/dev/null 2>&1; then
    log "generating the $rows-row table"
    rm -rf "$work/big"
    spark-submit --master 'local[2]' --conf spark.ui.enabled=false --driver-memory 2g "$driver" \
        generate-big "$work/big" "$rows" "$files" 2>>"$work/spark.log"
    find "$work/big" -name '.*.crc' -delete
    upload "$work/big" "s3://$bucket/$big"
fi
if [ "${REGENERATE:-0}" = 1 ] || ! s3cli s3 ls "s3://$bucket/$many/_SUCCESS" >/dev/null 2>&1; then
    log "generating the $list_files-file table"
    rm -rf "$work/one" "$work/many"
    spark-submit --master 'local[2]' --conf spark.ui.enabled=false "$driver" generate-one "$work/one" 2>>"$work/spark.log"
    one=$(ls "$work"/one/part-*.parquet | head -1)
    mkdir -p "$work/many"
    for i in $(seq -f '%05g' 0 $((list_files - 1))); do cp "$one" "$work/many/part-$i.parquet"; done
    : > "$work/many/_SUCCESS"
    upload "$work/many" "s3://$bucket/$many"
    rm -rf "$work/one" "$work/many"
fi
table_bytes=$(s3cli s3 ls --recursive --summarize "s3://$bucket/$big/" | awk '/Total Size/ {print $3}')

# ---- strata://: a volume over the same prefix, formatted without a mount ----
meta="sqlite://$work/strata-meta.db"
rm -rf "$work/strata-meta.db"* "$work/strata-state"
"$here/bin/strata" format "$meta" "s3://$bucket/$prefix" \
    -o "s3.endpoint=$S3_ENDPOINT,s3.region=$S3_REGION,s3.path_style_access=true" >&2

s3a_conf=(--jars "$(ls "$s3a_jars"/*.jar | paste -sd,)"
    --conf "spark.hadoop.fs.s3a.endpoint=$S3_ENDPOINT" --conf spark.hadoop.fs.s3a.endpoint.region="$S3_REGION"
    --conf spark.hadoop.fs.s3a.path.style.access=true --conf spark.hadoop.fs.s3a.connection.ssl.enabled=false)
# On the driver's class path, not --jars: Hadoop finds file systems by their service file once, in
# the class loader it starts with, before Spark adds --jars (S3A is named in Hadoop's core-default.xml).
strata_conf=(--driver-class-path "$strata_jar"
    --conf "spark.hadoop.fs.strata.meta=$meta" --conf "spark.hadoop.fs.strata.state_dir=$work/strata-state"
    --conf "spark.hadoop.fs.strata.s3.endpoint=$S3_ENDPOINT" --conf "spark.hadoop.fs.strata.s3.region=$S3_REGION"
    --conf spark.hadoop.fs.strata.s3.path_style_access=true)

# step NAME STEP URI CONF...: a fresh Spark JVM after dropping the kernel's caches; sets $seconds and $found
step() {
    local name=$1 what=$2 uri=$3; shift 3
    sync; echo 3 > /proc/sys/vm/drop_caches
    local out
    out=$(spark-submit --master 'local[2]' --conf spark.ui.enabled=false --driver-memory 2g "$@" \
        "$driver" "$what" "$uri" 2>>"$work/spark.log" | grep '^RESULT' || true)
    [ -n "$out" ] || { log "$name failed; see $work/spark.log"; tail -n 30 "$work/spark.log" >&2; exit 1; }
    seconds=$(echo "$out" | awk '{print $3}')
    found=$(echo "$out" | cut -d' ' -f4-)
    log "$name: $seconds s ($found)"
}

declare -A t
step "S3A read 1" read "s3a://$bucket/$big" "${s3a_conf[@]}"; t[s3a_r1]=$seconds; s3a_found=$found
step "S3A read 2" read "s3a://$bucket/$big" "${s3a_conf[@]}"; t[s3a_r2]=$seconds
step "strata read 1" read "strata://bench/${big#"$prefix"/}" "${strata_conf[@]}"; t[strata_r1]=$seconds
[ "$found" = "$s3a_found" ] || { log "strata:// found $found, S3A $s3a_found"; exit 1; }
step "strata read 2" read "strata://bench/${big#"$prefix"/}" "${strata_conf[@]}"; t[strata_r2]=$seconds
# The query's floor on this machine: the same files on local disk (kept from the generation).
t[local]=-
if [ -f "$work/big/_SUCCESS" ]; then
    step "local read" read "file://$work/big"; t[local]=$seconds
fi
step "S3A list 1" list "s3a://$bucket/$many" "${s3a_conf[@]}"; t[s3a_l1]=$seconds
step "S3A list 2" list "s3a://$bucket/$many" "${s3a_conf[@]}"; t[s3a_l2]=$seconds
step "strata list 1" list "strata://bench/${many#"$prefix"/}" "${strata_conf[@]}"; t[strata_l1]=$seconds
[ "$found" = "files=$list_files" ] || { log "strata:// listed $found"; exit 1; }
step "strata list 2" list "strata://bench/${many#"$prefix"/}" "${strata_conf[@]}"; t[strata_l2]=$seconds

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
echo
echo "Spark $pyspark_version local[2], S3 server $(basename "$(readlink -f "$PEERS_BIN/minio" 2>/dev/null || echo s3proxy)") with ${delay} ms one-way delay; table $(awk -v b="$table_bytes" 'BEGIN { printf "%.2f GiB", b / 2^30 }') in $files files ($rows rows), $list_files-file table; $(date -u +%F)"
echo
echo "| step | S3A (s) | strata:// (s) | S3A / strata | target |"
echo "|---|---|---|---|---|"
echo "| read 1 (strata: empty page cache) | ${t[s3a_r1]} | ${t[strata_r1]} | $(ratio "${t[s3a_r1]}" "${t[strata_r1]}") | >= 0.9x |"
echo "| read 2 (strata: page cache from read 1) | ${t[s3a_r2]} | ${t[strata_r2]} | $(ratio "${t[s3a_r2]}" "${t[strata_r2]}") | >= 2x |"
echo "| the same files on local disk (file://: Spark's own time, the floor of both) | ${t[local]} | ${t[local]} | | |"
echo "| list $list_files files (strata: metastore empty) | ${t[s3a_l1]} | ${t[strata_l1]} | $(ratio "${t[s3a_l1]}" "${t[strata_l1]}") | |"
echo "| list $list_files files again | ${t[s3a_l2]} | ${t[strata_l2]} | $(ratio "${t[s3a_l2]}" "${t[strata_l2]}") | >= 2x |"
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

"""One step of bench/spark-s3a.sh, in a Spark JVM of its own (spark-submit runs this file).

  generate-big DIR ROWS FILES   the Parquet table, written to a local directory (uploaded by the script)
  generate-one DIR              one small Parquet file (copied 10,000 times by the script)
  read URI                      a full scan with an aggregate over every column; prints its time
  list URI                      lists the table as a query does (the file index, schema given); prints its time

Each timed step prints one line "RESULT <step> <seconds> <what it found>" for the script. The
time is the query alone: the JVM and the SparkSession start before the clock does, and so does a
warm-up query on a small local table (Spark's first query loads and links thousands of classes:
~15 s on a loaded 2-core machine, the same for both file systems, which would drown a listing).
The file system's initialisation (S3A's client, Strata's volume) is inside the time, as a job pays it.
"""
import sys
import tempfile
import time

from pyspark.sql import SparkSession, functions as F, types as T

SCHEMA = T.StructType([
    T.StructField("id", T.LongType()),
    T.StructField("x", T.DoubleType()),
    T.StructField("payload", T.StringType()),
])


def session():
    return SparkSession.builder.appName("strata-vs-s3a").getOrCreate()


def generate_big(out, rows, files):
    # 1 KiB random alphanumeric payloads: no dictionary, nothing for snappy to squeeze, and
    # cheap to decode, so a scan on 2 cores waits on its reads rather than on Parquet decoding.
    spark = session()
    (spark.range(0, rows, 1, files)
        .select(F.col("id"), F.rand(7).alias("x"), F.expr("randstr(1024, 11)").alias("payload"))
        .write.mode("overwrite").parquet(out))
    spark.stop()


def generate_one(out):
    spark = session()
    (spark.range(0, 10, 1, 1)
        .select(F.col("id"), F.rand(7).alias("x"), F.expr("cast(id as string)").alias("payload"))
        .write.mode("overwrite").parquet(out))
    spark.stop()


def warm_up(spark):
    """The same query shapes on a small local table, so Spark's own first-query cost is paid untimed."""
    with tempfile.TemporaryDirectory() as tmp:
        (spark.range(0, 1000, 1, 2)
            .select(F.col("id"), F.rand(7).alias("x"), F.expr("cast(id as string)").alias("payload"))
            .write.parquet(tmp + "/t"))
        (spark.read.parquet(tmp + "/t")
            .agg(F.count("*"), F.sum("id"), F.sum("x"), F.sum(F.length("payload"))).first())
        spark.read.schema(SCHEMA).parquet(tmp + "/t").inputFiles()


def read(uri):
    spark = session()
    warm_up(spark)
    start = time.monotonic()
    row = (spark.read.parquet(uri)
           .agg(F.count("*").alias("rows"), F.sum("id").alias("ids"), F.sum("x").alias("xs"),
                F.sum(F.length("payload")).alias("chars"))
           .first())
    seconds = time.monotonic() - start
    print(f"RESULT read {seconds:.3f} rows={row['rows']} ids={row['ids']} chars={row['chars']}", flush=True)
    spark.stop()


def list_table(uri):
    spark = session()
    warm_up(spark)
    start = time.monotonic()
    files = spark.read.schema(SCHEMA).parquet(uri).inputFiles()
    seconds = time.monotonic() - start
    print(f"RESULT list {seconds:.3f} files={len(files)}", flush=True)
    spark.stop()


def main(argv):
    step = argv[1]
    if step == "generate-big":
        generate_big(argv[2], int(argv[3]), int(argv[4]))
    elif step == "generate-one":
        generate_one(argv[2])
    elif step == "read":
        read(argv[2])
    elif step == "list":
        list_table(argv[2])
    else:
        sys.exit(f"unknown step {step}")


if __name__ == "__main__":
    main(sys.argv)

"""PySpark in local mode against a hops namenode, the way a Spark user would use it.

Usage: python3 spark_on_hops.py NAMENODE_URI CLIENT ROOT [PREMADE_DIR [OTHER_OUTPUT]]
  CLIENT is 'stock' (the Hadoop client pyspark bundles) or 'hops' (hops-client as fs.hdfs.impl,
  its jars given to Spark as a user's --jars: HOPS_CLIENT_JARS, comma-separated). Under ROOT it writes DataFrames
  as Parquet, CSV and text into ROOT/plain and ROOT/db (the test gives ROOT/db the DB storage
  policy), reads them back, renames an output directory and reads it again, and reads the
  pre-made database files of PREMADE_DIR. Prints one line per check ('CHECK name ok' or
  'CHECK name FAIL ...') and per pre-made file, and exits 1 if any check failed.
"""
import hashlib
import os
import sys
import time

from pyspark.sql import SparkSession

uri, client, root = sys.argv[1], sys.argv[2], sys.argv[3]
premade = sys.argv[4] if len(sys.argv) > 4 else None
other = sys.argv[5] if len(sys.argv) > 5 else None
failures = []
started = time.monotonic()


def check(name, ok, detail=''):
    print('CHECK %s %s%s (%.1f s)' % (name, 'ok' if ok else 'FAIL', '' if ok else ' ' + detail,
                                      time.monotonic() - started), flush=True)
    if not ok:
        failures.append(name)


builder = (SparkSession.builder.master('local[2]').appName('hops-spark-' + client)
           .config('spark.ui.enabled', 'false')
           .config('spark.ui.showConsoleProgress', 'false')
           .config('spark.driver.host', '127.0.0.1')
           .config('spark.driver.bindAddress', '127.0.0.1')
           .config('spark.sql.shuffle.partitions', '2')
           .config('spark.hadoop.fs.defaultFS', uri)
           .config('spark.hadoop.dfs.replication', '1'))
if client == 'hops':
    builder = (builder
               .config('spark.jars', os.environ['HOPS_CLIENT_JARS'])
               .config('spark.hadoop.fs.hdfs.impl', 'io.hops.client.HopsDistributedFileSystem'))
spark = builder.getOrCreate()
sc = spark.sparkContext
sc.setLogLevel('WARN')
jvm = sc._jvm
conf = sc._jsc.hadoopConfiguration()
fs = jvm.org.apache.hadoop.fs.FileSystem.get(jvm.java.net.URI(uri), conf)
print('FILESYSTEM ' + fs.getClass().getName(), flush=True)
print('HADOOP ' + jvm.org.apache.hadoop.util.VersionInfo.getVersion(), flush=True)


def hpath(p):
    return jvm.org.apache.hadoop.fs.Path(p)


def committed(name, out):
    """FileOutputCommitter's renames left _SUCCESS and no _temporary behind."""
    check(name + '.success', fs.exists(hpath(out + '/_SUCCESS')))
    check(name + '.no-temporary', not fs.exists(hpath(out + '/_temporary')))


N = 2000
rows = spark.range(0, N, numPartitions=4).selectExpr(
    'id', "concat('row-', cast(id as string)) as name", 'id * 7 % 13 as bucket')
expected = sorted((i, 'row-%d' % i, i * 7 % 13) for i in range(N))

for kind in ('plain', 'db'):
    base = '%s%s/%s' % (uri, root, kind)
    rows.write.parquet(base + '/parquet')
    committed(kind + '.parquet', base + '/parquet')
    back = spark.read.parquet(base + '/parquet')
    check(kind + '.parquet.count', back.count() == N)
    got = sorted(tuple(r) for r in back.collect())
    check(kind + '.parquet.rows', got == expected, ' first differing rows: %s' % [
        (a, b) for a, b in zip(got, expected) if a != b][:3])
    # Append adds part files next to the committed ones (and overwrites _SUCCESS); overwrite
    # deletes the directory's files and commits new ones.
    rows.write.mode('append').parquet(base + '/parquet')
    check(kind + '.parquet.append', spark.read.parquet(base + '/parquet').count() == 2 * N)
    rows.write.mode('overwrite').parquet(base + '/parquet')
    committed(kind + '.parquet.overwrite', base + '/parquet')
    got = sorted(tuple(r) for r in spark.read.parquet(base + '/parquet').collect())
    check(kind + '.parquet.overwrite.rows', got == expected)

    rows.write.option('header', 'true').csv(base + '/csv')
    committed(kind + '.csv', base + '/csv')
    csv = spark.read.option('header', 'true').option('inferSchema', 'true').csv(base + '/csv')
    got = sorted(tuple(r) for r in csv.collect())
    check(kind + '.csv.rows', got == expected)

    rows.select('name').write.text(base + '/text')
    committed(kind + '.text', base + '/text')
    names = sorted(r[0] for r in spark.read.text(base + '/text').collect())
    check(kind + '.text.rows', names == sorted('row-%d' % i for i in range(N)))

    # The old Hadoop API's FileOutputCommitter (task attempt dir renamed into place, then job
    # commit), as RDD users write text.
    sc.parallelize(['line-%d' % i for i in range(500)], 3).saveAsTextFile(base + '/rdd')
    committed(kind + '.rdd', base + '/rdd')
    check(kind + '.rdd.lines',
          sorted(sc.textFile(base + '/rdd').collect()) == sorted('line-%d' % i for i in range(500)))

    # A user's own rename of a finished output, then a read of the renamed dataset.
    check(kind + '.rename', fs.rename(hpath(base + '/csv'), hpath(base + '/csv-renamed')))
    check(kind + '.rename.source-gone', not fs.exists(hpath(base + '/csv')))
    again = spark.read.option('header', 'true').option('inferSchema', 'true').csv(
        base + '/csv-renamed')
    check(kind + '.rename.rows', sorted(tuple(r) for r in again.collect()) == expected)

    # One partition of ~330 KB: past the database maximum, on datanodes even under DB.
    big = spark.range(0, 30000, numPartitions=1).selectExpr(
        "concat('big-row-', lpad(cast(id as string), 10, '0')) as v")
    big.write.text(base + '/big')
    committed(kind + '.big', base + '/big')
    check(kind + '.big.count', spark.read.text(base + '/big').count() == 30000)

if premade:
    # Files the test wrote with hops-client into a DB directory: read whole, as bytes and as lines.
    for name, data in sorted(sc.binaryFiles(uri + premade).collect()):
        print('BINARY %s %d %s' % (name.rsplit('/', 1)[1], len(data),
                                   hashlib.sha256(bytes(data)).hexdigest()), flush=True)
    for name, text in sorted(sc.wholeTextFiles(uri + premade).collect()):
        data = text.encode('utf-8')
        print('WHOLE %s %d %s' % (name.rsplit('/', 1)[1], len(data),
                                  hashlib.sha256(data).hexdigest()), flush=True)
    print('LINES %d' % spark.read.text(uri + premade).count(), flush=True)

if other:
    # Parquet that Spark wrote through the other client (database files when that was hops-client).
    got = sorted(tuple(r) for r in spark.read.parquet(uri + other).collect())
    check('other.parquet.rows', got == expected)

spark.stop()
print('DONE %d failed' % len(failures), flush=True)
sys.exit(1 if failures else 0)

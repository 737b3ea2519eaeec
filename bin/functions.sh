# Sourced by the Hive commands (bin/hive-datampi, bin/hiveserver2-datampi), the benchmark commands (bin/tpch-*,
# bin/hibench-*) and bin/mpidrun (class_data_options): the JVM they run in.
# DATAMPI_HOME must be set by the caller.

# class_data_options NAME [SUFFIX]: sets the array CLASS_DATA_OPTIONS to the JVM options that map NAME's class-data
# archive, target/cds/NAME.jsa (hive-cli: bin/hive-datampi's JVM; rank: a rank's). bin/setup makes both after each
# build from a training run (JDK 17's dynamic AppCDS): the classes a JVM of that kind loaded, parsed and verified once,
# mapped read-only, their pages shared by the JVMs of a host: a Hive shell starts and a rank group launches sooner.
# The JVM maps the archive only if the classpath it was made with is a prefix of the JVM's and every jar on it is as
# it was (size, time): otherwise it starts as without one, its warning silenced (stdout is the query's), and the next
# bin/setup makes the archives again. So what varies between runs (a site's HIVE_CONF_DIR) goes last on the classpath.
# With DATAMPI_CLASS_DATA_DUMP=DIR (bin/setup's training run) the JVM writes its archive into DIR as it exits instead,
# named NAME-SUFFIX.jsa when a SUFFIX is given (a rank group's job id: a file per group).
# DATAMPI_CLASS_DATA=off: no archive mapped (bin/startup-bench's runs without; or to rule the archives out).
class_data_options() {
  local name="$1" suffix="${2:-}" archive="$DATAMPI_HOME/target/cds/$1.jsa"
  CLASS_DATA_OPTIONS=()
  if [[ -n "${DATAMPI_CLASS_DATA_DUMP:-}" ]]; then
    CLASS_DATA_OPTIONS=("-XX:ArchiveClassesAtExit=$DATAMPI_CLASS_DATA_DUMP/$name${suffix:+-$suffix}.jsa")
  elif [[ "${DATAMPI_CLASS_DATA:-on}" != off && -f "$archive" ]]; then
    CLASS_DATA_OPTIONS=("-XX:SharedArchiveFile=$archive" -Xlog:cds=off -Xlog:cds+dynamic=off)
  fi
}

# setup_for_run: for a benchmark that runs many queries from one build: bin/setup once, then DATAMPI_SETUP_DONE=1 for
# the commands it starts (no rebuild of the jars their JVMs load), and target/setup.lock held shared for as long as
# the script runs (descriptor 8), so that bin/setup run meanwhile from another shell refuses to rebuild under it.
setup_for_run() {
  "$DATAMPI_HOME/bin/setup"
  export DATAMPI_SETUP_DONE=1
  exec 8>"$DATAMPI_HOME/target/setup.lock"
  flock -s 8
}

# run_complete DIR ENGINES: whether DIR holds a finished side-by-side run (engines.csv) in which every engine of the
# comma-separated list ran and exited 0: what --resume of a curve reuses instead of running again.
run_complete() {
  local dir="$1" engine
  [[ -f "$dir/engines.csv" ]] || return 1
  for engine in ${2//,/ }; do
    grep -q "^$engine,[0-9]*,0$" "$dir/engines.csv" || return 1
  done
}

# run_scales BENCH CURVE_OUT ENGINES RESUME SCALES -- ARGS...: runs the side-by-side benchmark BENCH (bin/tpch-bench,
# bin/tpcds-bench) once per scale of the comma-separated SCALES, with ARGS (the bench's own command line) less
# --scales and --out, each into CURVE_OUT/sf<scale>; with RESUME=true a scale whose run there finished with
# every engine is not run again (and --resume goes on to the bench: within a scale, an engine that finished is not run
# again either). Prints the points "scale=dir,..." that CostCurve takes: a scale whose run wrote no report is left out,
# and a run stopped by a signal (Ctrl-C, kill) stops the curve (run_scales fails with its status).
run_scales() {
  local bench="$1" curve_out="$2" engines="$3" resume="$4" scales="$5" one one_out arg skip status
  shift 6
  local points=() args
  for one in ${scales//,/ }; do
    args=() skip=false
    for arg in "$@"; do
      if $skip; then skip=false; continue; fi
      case "$arg" in --scales|--out) skip=true; continue ;; esac
      args+=("$arg")
    done
    one_out="$curve_out/sf${one//./_}"
    if $resume && run_complete "$one_out" "$engines"; then
      echo "$(basename "$bench"): --resume: scale $one already ran with $engines in $one_out" >&2
    else
      status=0
      rm -f "$one_out/engines.csv" # the report of this run, not an earlier one's, goes into the curve
      "$bench" "${args[@]}" --scale "$one" --out "$one_out" >&2 || status=$?
      if (( status >= 128 )); then
        echo "$(basename "$bench"): stopped at scale $one (signal $((status - 128))): no curve; --resume goes on" >&2
        return "$status"
      elif (( status != 0 )); then
        echo "$(basename "$bench"): scale $one had failures: see its report in $one_out" >&2
      fi
    fi
    if [[ ! -f "$one_out/engines.csv" ]]; then
      echo "$(basename "$bench"): scale $one wrote no report in $one_out: left out of the curve" >&2
      continue
    fi
    points+=("$one=$one_out")
  done
  if [[ ${#points[@]} -eq 0 ]]; then
    echo "$(basename "$bench"): no scale wrote a report: no curve" >&2
    return 1
  fi
  (IFS=,; echo "${points[*]}")
}

# hive_conf_classpath: where Hive finds its hive-site.xml, on a Hive JVM's classpath: a site's own in
# $HIVE_CONF_DIR (Hive's convention; it replaces conf/hive-site.xml, which it may include with xi:include), else
# conf/ (the embedded default). conf/ stays on the classpath for the rest it holds.
hive_conf_classpath() {
  if [[ -n "${HIVE_CONF_DIR:-}" ]]; then
    [[ -f "$HIVE_CONF_DIR/hive-site.xml" ]] || { echo "HIVE_CONF_DIR=$HIVE_CONF_DIR has no hive-site.xml" >&2; return 1; }
    echo "$HIVE_CONF_DIR:$DATAMPI_HOME/conf"
  else
    echo "$DATAMPI_HOME/conf"
  fi
}

# ensure_tpch_database SCALE FORMAT [--bucketed] [--warehouse DIR]: the database bin/tpch-load makes for SCALE and
# FORMAT, generated and loaded when it is missing or not completely loaded (tpch-load marks a database complete after
# its last table: datampi.tpch.loaded, in tpch-queries/ddl). Generating resumes where it stopped (tpch-gen writes only
# the files that are missing). The data's directory: $TPCH_DATA, else state/tpch-data/sf<SCALE>.
ensure_tpch_database() {
  local scale="$1" format="$2"; shift 2
  local bucketed=() warehouse=() db_scale database description data
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --bucketed) bucketed=(--bucketed); shift ;;
      --warehouse) warehouse=(--warehouse "$2"); shift 2 ;;
      *) echo "ensure_tpch_database: unknown option '$1'" >&2; return 2 ;;
    esac
  done
  db_scale="${scale//./_}"
  database="tpch_sf${db_scale}_${format}${bucketed:+_bucketed}"
  data="${TPCH_DATA:-${HIVE_DATAMPI_STATE:-$DATAMPI_HOME/state}/tpch-data/sf${db_scale}}"
  description="$("$DATAMPI_HOME/bin/hive-datampi" "${warehouse[@]}" -e "DESCRIBE DATABASE EXTENDED $database" \
    2>/dev/null || true)"
  if [[ "$description" != *"datampi.tpch.loaded=complete"* ]]; then
    echo "database $database is missing or not completely loaded: generating and loading scale $scale" >&2
    "$DATAMPI_HOME/bin/tpch-gen" --scale "$scale" --out "$data"
    "$DATAMPI_HOME/bin/tpch-load" --scale "$scale" --data "$data" --format "$format" "${bucketed[@]}" "${warehouse[@]}"
  fi
}

# bench_java CLASS ARGS...: runs a class of hive-datampi-benchmarks with Hive's settings and logging. With
# "--engine tez" or "--engine tez-yarn" among the arguments, Tez's runtime joins the classpath (only then: it brings a log4j 1.x
# implementation that must stay out of the datampi paths). BENCH_CLASSPATH, when set, joins it too (Hive's JDBC
# driver for bin/hs2-bench).
bench_java() {
  local class="$1"; shift
  local jar classpath heap="${HIVE_DATAMPI_HEAP:-4g}" arg previous="" conf
  jar="$(ls "$DATAMPI_HOME"/hive-datampi-benchmarks/target/hive-datampi-benchmarks-*.jar | head -1)"
  conf="$(hive_conf_classpath)" || exit 2
  classpath="$conf:$jar:$DATAMPI_HOME/hive-datampi-benchmarks/target/lib/*${BENCH_CLASSPATH:+:$BENCH_CLASSPATH}"
  for arg in "$@"; do
    [[ "$previous" == --engine && "$arg" == tez* ]] && classpath="$classpath:$DATAMPI_HOME/hive-datampi-benchmarks/target/tez-lib/*"
    previous="$arg"
  done
  # exec: a signal to the script (timeout, Ctrl-C) reaches the JVM, whose shutdown hooks stop what it started.
  exec java "-Xmx$heap" "@$DATAMPI_HOME/conf/jvm.args" -XX:+UseParallelGC \
    "-Ddatampi.home=$DATAMPI_HOME" "-Dlog4j2.configurationFile=$DATAMPI_HOME/conf/hive-datampi-log4j2.properties" \
    "-Dhive.datampi.log.dir=${HIVE_DATAMPI_STATE:-$DATAMPI_HOME/state}/logs" \
    -cp "$classpath" "$class" "$@"
}

#!/usr/bin/env bash
# Builds the JNI binding (datampi_mpi.c) once per MPI implementation with that implementation's own mpicc:
#   build-native.sh IMPLS OUTDIR
# IMPLS is "auto" (every installed implementation among openmpi and mpich) or a comma-separated list.
# Writes OUTDIR/libdatampi_mpi_<impl>.so; the Java side loads the one that matches the launcher (DATAMPI_MPI).
set -euo pipefail
impls="${DATAMPI_BUILD_MPI_IMPLS:-${1:-auto}}"
outdir="$2"
src="$(cd "$(dirname "$0")" && pwd)/datampi_mpi.c"
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"

mpicc_for() {
  case "$1" in
    openmpi) command -v mpicc.openmpi || true ;;
    mpich) command -v mpicc.mpich || true ;;
    *) echo "build-native.sh: unknown MPI implementation '$1' (accepted: openmpi, mpich)" >&2; exit 2 ;;
  esac
}

if [[ "$impls" == auto ]]; then
  impls=""
  for candidate in openmpi mpich; do
    [[ -n "$(mpicc_for "$candidate")" ]] && impls="$impls,$candidate"
  done
  impls="${impls#,}"
  if [[ -z "$impls" ]]; then
    echo "build-native.sh: no MPI compiler found (mpicc.openmpi or mpicc.mpich); run bin/setup first" >&2
    exit 1
  fi
fi

mkdir -p "$outdir"
IFS=',' read -ra wanted <<< "$impls"
for impl in "${wanted[@]}"; do
  compiler="$(mpicc_for "$impl")"
  if [[ -z "$compiler" ]]; then
    echo "build-native.sh: mpicc for '$impl' is not installed; run bin/setup --mpi $impl" >&2
    exit 1
  fi
  target="$outdir/libdatampi_mpi_${impl}.so"
  if [[ ! -f "$target" || "$src" -nt "$target" || "$0" -nt "$target" ]]; then
    "$compiler" -O2 -g -Wall -Wextra -Wno-unused-parameter -shared -fPIC \
      -I"$java_home/include" -I"$java_home/include/linux" "$src" -o "$target" -ldl
    echo "build-native.sh: built $target with $compiler"
  fi
done

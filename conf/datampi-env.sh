# Engine defaults read by bin/mpidrun; each can be overridden by the environment variable of the same name.
# MPI implementation the ranks run on: openmpi (default when installed) or mpich.
: "${DATAMPI_MPI:=}"
# Heap of each rank's JVM.
: "${DATAMPI_HEAP:=2g}"
# Where each rank spills sorted runs (a per-job directory is created below it and removed afterwards).
: "${DATAMPI_LOCAL_DIR:=${TMPDIR:-/tmp}}"
# Where each job's per-rank logs go: $DATAMPI_LOG_DIR/<job id>/rank-<N>.log.
: "${DATAMPI_LOG_DIR:=$DATAMPI_HOME/logs}"
# Extra arguments for mpirun (e.g. "--mca btl self,tcp" for two pretend hosts on one machine).
: "${DATAMPI_MPIRUN_OPTS:=}"
# Extra JVM options for every rank.
: "${DATAMPI_JAVA_OPTS:=}"

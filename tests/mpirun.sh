#!/usr/bin/env bash
# The one place where collsim's tests start Open MPI on this machine:
#   tests/mpirun.sh N [MPIRUN OPTIONS] PROGRAM ARGS...
#     = mpirun -np N [MPIRUN OPTIONS] PROGRAM ARGS...
# with what a CI container (root, 2 cores, no network, no ptrace) needs:
#   --allow-run-as-root                 CI runs as root
#   --oversubscribe                     more ranks than cores
#   btl self,vader, pml ob1             shared memory only: no network device
#                                       needed, no UCX probing
#   vader single copy mechanism none    CMA needs ptrace, which containers deny
#   a session directory of its own      TMPDIR: Open MPI keeps its session
#                                       files under $TMPDIR/ompi.HOST.UID, and
#                                       two runs at once (ctest -j2) that share
#                                       it race on creating and removing it
#                                       ("could not create session directory")
# A hung run is killed after COLLSIM_MPI_TIMEOUT seconds (default 120), so a
# deadlocked algorithm fails its test instead of stalling ctest.
set -euo pipefail
if (($# < 2)); then
  echo "usage: tests/mpirun.sh N PROGRAM [ARGS...]" >&2
  exit 2
fi
n=$1
shift
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_btl_vader_single_copy_mechanism=none
session=$(mktemp -d "${TMPDIR:-/tmp}/collsim-mpirun.XXXXXX")
trap 'rm -rf "$session"' EXIT
export TMPDIR=$session
timeout --kill-after=5 "${COLLSIM_MPI_TIMEOUT:-120}" \
  mpirun --allow-run-as-root --oversubscribe -np "$n" "$@"

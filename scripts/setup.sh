#!/usr/bin/env bash
# Installs every Debian package collsim needs. Idempotent, no prompts; run as
# root on Debian 12. Skips apt entirely when everything is already there.
set -euo pipefail

packages=(
  build-essential cmake git
  libgtest-dev googletest            # unit and end-to-end tests
  libboost-program-options-dev       # command line
  libboost-graph-dev                 # two-tree colouring, Graphviz export
  libsimgrid-dev                     # SMPI: smpirun, smpicxx, S4U (3.32)
  libopenmpi-dev openmpi-bin         # real MPI runs
  graphviz                           # dot: SVG/PNG pictures
  gnuplot-nox                        # PNG plots from CSV
  libxml2-dev                        # platform XML checked before SimGrid reads it
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup: all packages present" >&2

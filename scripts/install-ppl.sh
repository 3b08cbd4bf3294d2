#!/usr/bin/env bash
# Installs the Parma Polyhedra Library's C interface (ppl_c.h, libppl_c, and the C++ library and
# GMP it needs), which the differential test and the benchmark of ppl/ link with its `ppl`
# feature. Debian bookworm packages; run as root (CI runs as root). Does nothing when already
# present.
set -euo pipefail
if dpkg-query -W -f '${Status}' libppl-dev 2>/dev/null | grep -q "install ok installed"; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q libppl-dev

#!/usr/bin/env bash
# Installs what the LLVM front end (ir-llvm/) and its corpus scripts need: LLVM 15's
# libraries and headers (for llvm-sys, the C API's binding), clang-15 and opt-15, and GNU time
# (the comparison tool's `--absinthe` measures peak memory with it).
# Debian bookworm packages; run as root (CI runs as root). Does nothing when already present.
set -euo pipefail
if command -v llvm-config-15 >/dev/null && command -v clang-15 >/dev/null \
    && command -v opt-15 >/dev/null && [ -x /usr/bin/time ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q llvm-15-dev clang-15 time

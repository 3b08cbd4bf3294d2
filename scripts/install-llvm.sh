#!/usr/bin/env bash
# Installs what the LLVM front end (ir-llvm/) and its corpus scripts need: LLVM 15's
# libraries and headers (for the llvm-ir crate's `llvm-15` feature), clang-15 and opt-15.
# Debian bookworm packages; run as root (CI runs as root). Does nothing when already present.
set -euo pipefail
if command -v llvm-config-15 >/dev/null && command -v clang-15 >/dev/null \
    && command -v opt-15 >/dev/null; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q llvm-15-dev clang-15

#!/usr/bin/env bash
# Installs headless Chromium for the browser tests (browser-tests/): Debian bookworm's
# `chromium` package, without its recommends. Does nothing when /usr/bin/chromium is already
# there. Prints the path of the executable. Run as root (CI runs as root), or with sudo.
set -euo pipefail
BIN=/usr/bin/chromium
if [ -x "$BIN" ]; then
    echo "$BIN"
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# apt's progress goes to stderr: stdout carries only the path.
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq --no-install-recommends chromium >&2
echo "$BIN"

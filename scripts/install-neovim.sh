#!/usr/bin/env bash
# Installs Neovim (Debian's package: its built-in LSP client drives `absinthe lsp` in
# scripts/neovim-tests.sh). Run as root (CI runs as root). Does nothing when already present.
set -euo pipefail
if command -v nvim >/dev/null; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends neovim

#!/usr/bin/env bash
# `absinthe lsp` in a real editor: Debian's Neovim (scripts/install-neovim.sh), headless, with
# the setup of editors/neovim/absinthe.lua, runs editors/neovim/test.lua on a scratch `.dom`
# file and prints one TAP line per check. Uses the absinthe binary `cargo test` built (or
# $ABSINTHE).
set -euo pipefail
cd "$(dirname "$0")/.."
ABSINTHE=${ABSINTHE:-target/debug/absinthe}
if [ ! -x "$ABSINTHE" ]; then
    echo "no absinthe binary at $ABSINTHE: run \`cargo build -p absinthe-cli\` first" >&2
    exit 1
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ABSINTHE=$(realpath "$ABSINTHE") DOM_FILE="$scratch/sign.dom" \
    timeout 120 nvim --headless --clean -n -c "luafile editors/neovim/test.lua" 2>&1

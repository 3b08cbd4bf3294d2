#!/usr/bin/env bash
# Installs mdBook, the book's builder, from the crate registry at a pinned version into
# target/tools (no search index, no live server: what `mdbook build` needs). Does nothing when
# that version is already there. Prints the path of the binary. An unoptimized build without
# debug information: it compiles in a fraction of the time of a release build, and renders this
# book in about a second all the same.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=0.5.4
ROOT=target/tools
BIN="$ROOT/bin/mdbook"
if [ -x "$BIN" ] && "$BIN" --version | grep -q "v$VERSION\$"; then
    echo "$BIN"
    exit 0
fi
CARGO_PROFILE_DEV_DEBUG=false cargo install mdbook --version "=$VERSION" --locked --debug \
    --no-default-features --root "$ROOT" --quiet >&2
echo "$BIN"

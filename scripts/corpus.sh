#!/usr/bin/env bash
# Builds the LLVM IR corpus for the front end and the SCCP comparison: five real C libraries
# that crates on the crate registry ship as vendored sources (sqlite3, zstd, Lua 5.4, zlib, bzip2), fetched with
# `cargo vendor`, compiled with clang-15 at -O0 (optnone disabled) and -O1, linked per library
# and put through `opt-15 -passes='function(mem2reg,instnamer)'` so that every value has a name.
#
# Usage: scripts/corpus.sh [OUT_DIR] [LIBRARY...]   (default: target/corpus, all five)
# Writes OUT_DIR/LIB.O0.ll and OUT_DIR/LIB.O1.ll. Needs scripts/install-llvm.sh first.
# Nothing it produces is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-target/corpus}"
shift || true
LIBS=("$@")
if [ ${#LIBS[@]} -eq 0 ]; then
    LIBS=(sqlite3 zstd lua zlib bzip2)
fi
for tool in clang-15 llvm-link-15 opt-15; do
    command -v "$tool" >/dev/null || { echo "error: $tool not found; run scripts/install-llvm.sh" >&2; exit 1; }
done
mkdir -p "$OUT/fetch/src"
OUT="$(cd "$OUT" && pwd)"

# Fetch the sources: a throw-away package whose dependencies are the five -sys crates.
FETCH="$OUT/fetch"
cat > "$FETCH/Cargo.toml" <<'TOML'
[package]
name = "absinthe-corpus-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
libsqlite3-sys = { version = "=0.30.1", features = ["bundled"] }
zstd-sys = "=2.1.3"
lua-src = "=547.1.0"
libz-sys = { version = "=1.1.31", features = ["static"] }
bzip2-sys = "=0.1.13"
TOML
echo 'fn main() {}' > "$FETCH/src/main.rs"
if [ ! -d "$FETCH/vendor" ]; then
    (cd "$FETCH" && cargo vendor --quiet --versioned-dirs vendor >/dev/null)
fi
V="$FETCH/vendor"
dir_of() { local d; d=$(ls -d "$V/$1"-* | head -n 1); echo "$d"; }

# Per library: the C files and the compiler flags.
sources() {
    case "$1" in
        sqlite3) echo "$(dir_of libsqlite3-sys)/sqlite3/sqlite3.c" ;;
        zstd)
            local z; z="$(dir_of zstd-sys)/zstd/lib"
            ls "$z"/common/*.c "$z"/compress/*.c "$z"/decompress/*.c ;;
        lua)
            local l; l="$(dir_of lua-src)/lua-5.4.7"
            ls "$l"/*.c | grep -v -e '/lua\.c$' -e '/luac\.c$' -e '/onelua\.c$' ;;
        zlib) ls "$(dir_of libz-sys)"/src/zlib/*.c ;;
        bzip2)
            local b; b="$(dir_of bzip2-sys)/bzip2-1.0.8"
            for f in blocksort huffman crctable randtable compress decompress bzlib; do
                echo "$b/$f.c"
            done ;;
        *) echo "error: unknown library $1" >&2; exit 1 ;;
    esac
}
flags() {
    case "$1" in
        sqlite3) echo "-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION" ;;
        zstd) echo "-DZSTD_DISABLE_ASM -DZSTD_MULTITHREAD=0 -I$(dir_of zstd-sys)/zstd/lib -I$(dir_of zstd-sys)/zstd/lib/common" ;;
        lua) echo "-DLUA_USE_LINUX" ;;
        zlib) echo "-DHAVE_UNISTD_H -DHAVE_STDARG_H" ;;
        bzip2) echo "-D_FILE_OFFSET_BITS=64" ;;
    esac
}

for lib in "${LIBS[@]}"; do
    for level in O0 O1; do
        work="$OUT/build/$lib.$level"
        rm -rf "$work"
        mkdir -p "$work"
        case "$level" in
            O0) opt_flags=(-O0 -Xclang -disable-O0-optnone) ;;
            O1) opt_flags=(-O1) ;;
        esac
        bcs=()
        i=0
        while read -r src; do
            bc="$work/$i.$(basename "$src" .c).bc"
            # shellcheck disable=SC2046
            clang-15 "${opt_flags[@]}" -g0 -w -emit-llvm -c $(flags "$lib") "$src" -o "$bc"
            bcs+=("$bc")
            i=$((i + 1))
        done < <(sources "$lib")
        llvm-link-15 "${bcs[@]}" -o "$work/linked.bc"
        opt-15 -passes='function(mem2reg,instnamer)' -S "$work/linked.bc" -o "$OUT/$lib.$level.ll"
        echo "$OUT/$lib.$level.ll: $(grep -c '^define' "$OUT/$lib.$level.ll") functions"
    done
done

#!/bin/sh
# Runs one libFuzzer target of the asan build (fuzz/CMakeLists.txt; ctest and tools/lab fuzz call it).
#   fuzz/run.sh BUILD_DIR NAME corpus     every file of fuzz/corpus/NAME once, no mutation
#   fuzz/run.sh BUILD_DIR NAME SECONDS    mutate from that corpus for SECONDS; new inputs go to
#                                         BUILD_DIR/fuzz/scratch/NAME (emptied first), never
#                                         into fuzz/corpus
# Exit status 0 when nothing was found. A finding's input is written to
# BUILD_DIR/fuzz/findings/NAME-crash-<sha1> (or -timeout-, -oom-, -leak-); rerun it with
# BUILD_DIR/fuzz/NAME_fuzz FILE.
# Limits: inputs up to 4 KiB, 25 s per input, 2 GiB of RSS, 512 MiB in one allocation; past
# any of them is a finding too.
set -eu
[ $# -eq 3 ] || { echo "usage: fuzz/run.sh BUILD_DIR NAME corpus|SECONDS" >&2; exit 2; }
build=$1; name=$2; mode=$3
src=$(cd "$(dirname "$0")" && pwd)
target=$build/fuzz/${name}_fuzz
[ -x "$target" ] || { echo "fuzz/run.sh: $target is not built (cmake --build --preset asan)" >&2; exit 2; }
mkdir -p "$build/fuzz/findings"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
set -- -max_len=4096 -timeout=25 -rss_limit_mb=2048 -malloc_limit_mb=512 \
  "-artifact_prefix=$build/fuzz/findings/$name-"
if [ "$mode" = corpus ]; then
  exec "$target" "$@" "$src/corpus/$name"/*
fi
case $mode in ''|*[!0-9]*) echo "fuzz/run.sh: SECONDS must be a whole number, got '$mode'" >&2; exit 2;; esac
scratch=$build/fuzz/scratch/$name
rm -rf "$scratch"; mkdir -p "$scratch"
exec "$target" "$@" -max_total_time="$mode" -print_final_stats=1 "$scratch" "$src/corpus/$name"

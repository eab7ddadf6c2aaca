#!/bin/sh
# Builds one libFuzzer target (feed, config or image) with the address sanitizer and runs
# it for SECONDS (default 60), starting from fuzz/corpus/TARGET and growing
# build/fuzz/corpus-TARGET. Crashes are written to build/fuzz/ as crash-* files.
#   sh scripts/fuzz.sh feed 600       # ten minutes on the feed decoder
set -eu
cd "$(dirname "$0")/.."
target=$1
seconds=${2:-60}
case "$target" in
    feed) entry=fuzz/FeedFuzz.swift ;;
    config) entry=fuzz/ConfigFuzz.swift ;;
    image) entry=fuzz/ImageHeaderFuzz.swift ;;
    *) echo "usage: $0 feed|config|image [SECONDS]" >&2; exit 2 ;;
esac
mkdir -p build/fuzz "build/fuzz/corpus-$target"
binary="build/fuzz/fuzz-$target"
swiftc -sanitize=fuzzer,address -parse-as-library -O $(find Sources/SplashCore -name "*.swift") "$entry" -o "$binary" 2>&1 \
    | grep -v "warning:" || true
# A crash is libFuzzer's to report: the Swift backtracer would wait on it.
SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix=build/fuzz/ \
    "build/fuzz/corpus-$target" "fuzz/corpus/$target" 2>&1 | tail -n 12

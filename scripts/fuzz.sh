#!/bin/sh
# Builds one libFuzzer target (feed, config, image or media) with the address sanitizer and runs
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
    media) entry=fuzz/MediaProbeFuzz.swift ;;
    *) echo "usage: $0 feed|config|image|media [SECONDS]" >&2; exit 2 ;;
esac
# The media target adds the probe's demuxing and decoding (Debian's FFmpeg, not
# instrumented: coverage guides the probe around it) to the core, as one module.
extra=""
if [ "$target" = media ]; then
    extra="-module-name SplashCore -I Sources/CFFmpeg $(for f in MediaError MediaInput VideoDecoder FrameScaler VideoProbe; do
        printf 'Sources/SplashMedia/%s.swift ' "$f"; done) -lavformat -lavcodec -lswscale -lavutil"
fi
mkdir -p build/fuzz "build/fuzz/corpus-$target"
binary="build/fuzz/fuzz-$target"
swiftc -sanitize=fuzzer,address -parse-as-library -O $(find Sources/SplashCore -name "*.swift") $extra "$entry" -o "$binary" 2>&1 \
    | grep -v "warning:" || true
# A crash is libFuzzer's to report: the Swift backtracer would wait on it.
SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix=build/fuzz/ \
    "build/fuzz/corpus-$target" "fuzz/corpus/$target" 2>&1 | tail -n 12

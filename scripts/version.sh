#!/bin/sh
# The version a package built from this tree gets: the product's (Version.swift's `base`),
# then, in a git checkout, "+git" and the UTC time of the commit and its short hash —
# 0.1.0+git20261207.013000.abc1234 — so that each build of a changed tree is ordered by
# apt after the one before it. A tree with changes not committed is stamped with the
# time of the build instead, and ".dirty". Outside git (a tarball): the base alone.
set -eu
cd "$(dirname "$0")/.."
base=$(sed -n 's/.*static let base = "\(.*\)".*/\1/p' Sources/SplashCore/Options/Version.swift)
[ -n "$base" ] || { echo "scripts/version.sh: no base version in Sources/SplashCore/Options/Version.swift" >&2; exit 1; }
if ! git rev-parse --verify -q HEAD >/dev/null 2>&1; then
    echo "$base"
    exit 0
fi
hash=$(git rev-parse --short=7 HEAD)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    echo "$base+git$(date -u +%Y%m%d.%H%M%S).$hash.dirty"
else
    echo "$base+git$(TZ=UTC0 git log -1 --format=%cd --date=format-local:%Y%m%d.%H%M%S HEAD).$hash"
fi

#!/bin/sh
# `make deb ARCH=arm64`: builds build/splashboard_<version>_arm64.deb on an amd64 Debian
# machine, as root, for Debian 13 and Raspberry Pi OS 64-bit (which is based on it).
#
# Debian 13's own Swift toolchain (swiftlang 6.0) runs in a Debian 13 amd64 root made by
# mmdebstrap (the toolroot) and cross-compiles against an arm64 Debian 13 system
# extracted beside it (the sysroot: the arm64 -dev packages and Swift's arm64
# static runtime). The root also holds the arm64 runtime libraries, so that
# dpkg-shlibdeps names Debian 13's arm64 packages in Depends. packaging/build-deb.sh then
# runs inside the root, as for amd64. Both roots (about 6.5 GB) are kept outside the clone,
# in a folder named after their recipe under $SPLASH_ROOTS, else $XDG_CACHE_HOME/splashboard-build,
# else /var/cache/splashboard-build: the first build on a machine fetches them (a few minutes),
# later ones, from any clone, do not; a changed package list makes new ones.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
[ "$(id -u)" -eq 0 ] || { echo "make deb ARCH=arm64: run it as root (it makes Debian roots with mmdebstrap and chroots into them)" >&2; exit 2; }
[ "$(dpkg --print-architecture)" = amd64 ] || { echo "make deb ARCH=arm64: builds on an amd64 machine (this one is $(dpkg --print-architecture))" >&2; exit 2; }

# The arm64 -dev packages the program is built against (Makefile's BUILD_PACKAGES, Debian 13's names).
dev="libc6-dev,libgcc-14-dev,libstdc++-14-dev,libswiftlang,swiftlang,libsdl2-dev,libsdl2-image-dev,libharfbuzz-dev,libfreetype-dev,libgif-dev,libpixman-1-dev"
dev="$dev,libsqlite3-dev,libfontconfig-dev,libx11-dev,libxext-dev,libdrm-dev,libturbojpeg0-dev,libpng-dev,libwebp-dev"
dev="$dev,libavformat-dev,libavcodec-dev,libswscale-dev,libavutil-dev,libqrencode-dev,libcurl4-openssl-dev"
# What the package's programs link, as arm64 packages of the root, for dpkg-shlibdeps.
runtime="libharfbuzz0b,libfreetype6,libgif7,libpixman-1-0,libsqlite3-0,libfontconfig1,libdrm2,libturbojpeg0"
runtime="$runtime,libpng16-16t64,libwebp7,libavformat61,libavcodec61,libswscale8,libavutil59,libqrencode4,libcurl4t64"
runtime="$runtime,libx11-6,libxext6,libstdc++6"
tools="swiftlang,lld,dpkg-dev,pkg-config,binutils-aarch64-linux-gnu,file,libc6-dev,libgcc-14-dev,libstdc++-14-dev"

# The roots' folder: named by what goes into them (the suite, the three lists, the recipe's revision).
recipe="trixie 2 $dev $runtime $tools"
key=$(printf '%s' "$recipe" | sha256sum | cut -c1-16)
dir="${SPLASH_ROOTS:-${XDG_CACHE_HOME:-/var/cache}/splashboard-build}/arm64-$key"
mkdir -p "$dir"
echo "arm64: Debian 13 roots in $dir"

if [ ! -e "$dir/toolroot/.complete" ]; then
    echo "arm64: making the Debian 13 amd64 root with Swift ($dir/toolroot; the first time only)"
    rm -rf "$dir/toolroot"
    arm_runtime=$(echo "$runtime" | sed 's/\([^,]*\)/\1:arm64/g')
    mmdebstrap --variant=apt --architectures=amd64,arm64 --include="$tools,$arm_runtime" trixie "$dir/toolroot" \
        > "$dir/toolroot.log" 2>&1 || { tail -n 30 "$dir/toolroot.log" >&2; echo "mmdebstrap failed: see $dir/toolroot.log" >&2; exit 1; }
    touch "$dir/toolroot/.complete"
fi
if [ ! -e "$dir/sysroot/.complete" ]; then
    echo "arm64: extracting the Debian 13 arm64 system to build against ($dir/sysroot; the first time only)"
    rm -rf "$dir/sysroot"
    mmdebstrap --variant=extract --architectures=arm64 --include="$dev" trixie "$dir/sysroot" \
        > "$dir/sysroot.log" 2>&1 || { tail -n 30 "$dir/sysroot.log" >&2; echo "mmdebstrap failed: see $dir/sysroot.log" >&2; exit 1; }
    # The linker scripts and crt paths name /lib: Debian's merged /usr, as an installed system has it.
    for d in lib bin sbin; do [ -e "$dir/sysroot/$d" ] || ln -s "usr/$d" "$dir/sysroot/$d"; done
    touch "$dir/sysroot/.complete"
fi

# The project and the arm64 system inside the root; undone however the build ends.
mkdir -p "$dir/toolroot/src" "$dir/toolroot/sysroot"
cleanup() {
    for m in src sysroot proc dev; do umount "$dir/toolroot/$m" 2>/dev/null || umount -l "$dir/toolroot/$m" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM
mount --bind "$top" "$dir/toolroot/src"
mount --bind "$dir/sysroot" "$dir/toolroot/sysroot"
mount -t proc proc "$dir/toolroot/proc"
mount --bind /dev "$dir/toolroot/dev"
# The version is worked out here, where git is (the root has none).
version=$(sh scripts/version.sh)
chroot "$dir/toolroot" env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME=/root SPLASH_CROSS=arm64 SPLASH_VERSION="$version" \
    sh -c 'cd /src && sh packaging/build-deb.sh'

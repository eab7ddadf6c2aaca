#!/bin/sh
# Builds splashboard_<version>_<arch>.deb with dpkg-deb: a release build with the Swift
# runtime linked statically, stripped; Depends computed with dpkg-shlibdeps. Beside it,
# splashboard-dbgsym_<version>_<arch>.deb: each program's symbols and debug information
# as a build-id debug file (/usr/lib/debug/.build-id/NN/REST.debug), where gdb, coredumpctl
# and systemd-coredump's journal backtraces find them. Works the same on amd64 and, from
# packaging/build-deb-arm64.sh (make deb ARCH=arm64), for arm64. Output (last line):
# build/splashboard_<version>_<arch>.deb
set -eu
cd "$(dirname "$0")/.."

# The package's version (scripts/version.sh: from git; given by build-deb-arm64.sh, whose
# root has no git), compiled into the programs (Version.current), which print it.
version=${SPLASH_VERSION:-$(sh scripts/version.sh)}
case "$version" in
    *[!0-9A-Za-z.+~-]*|"") echo "build-deb.sh: \"$version\" is not a Debian version" >&2; exit 1 ;;
esac
cat > Sources/SplashCore/Options/VersionStamp.swift <<STAMP
// Written by packaging/build-deb.sh; not kept in git.
#if SPLASH_STAMPED
enum VersionStamp {
    static let version = "$version"
}
#endif
STAMP
# SPLASH_CROSS=arm64: inside the Debian 13 root of packaging/build-deb-arm64.sh, a
# cross-build against its arm64 system in /sysroot (Debian's Swift 6.0 and its arm64
# static runtime), stripped and looked up with the arm64 tools.
strip=strip
objcopy=objcopy
shlibdeps=dpkg-shlibdeps
if [ "${SPLASH_CROSS:-}" = arm64 ]; then
    arch=arm64
    export PKG_CONFIG_PATH=/sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:/sysroot/usr/share/pkgconfig
    export PKG_CONFIG_LIBDIR="$PKG_CONFIG_PATH" PKG_CONFIG_SYSROOT_DIR=/sysroot
    set -- --triple aarch64-unknown-linux-gnu --sdk /sysroot --scratch-path .build/arm64 \
        -Xswiftc -sdk -Xswiftc /sysroot -Xswiftc -resource-dir -Xswiftc /sysroot/usr/libexec/swift/lib/swift_static \
        -Xswiftc -use-ld=lld -Xlinker --build-id=sha1
    strip=aarch64-linux-gnu-strip
    objcopy=aarch64-linux-gnu-objcopy
    shlibdeps="dpkg-architecture -a arm64 -c dpkg-shlibdeps"
else
    arch=$(dpkg --print-architecture)
    # Debian's swiftlang links with no build id of its own; the dbgsym package is named by it.
    set -- -Xlinker --build-id=sha1
fi
name="splashboard_${version}_${arch}"
stage="build/$name"
debug_name="splashboard-dbgsym_${version}_${arch}"
debug_stage="build/$debug_name"
rm -rf "$stage" "$debug_stage" && mkdir -p "$stage/DEBIAN" "$debug_stage/DEBIAN"

set -- "$@" -Xswiftc -DSPLASH_STAMPED
swift build -c release --static-swift-stdlib "$@"
bins=$(swift build -c release --static-swift-stdlib "$@" --show-bin-path)

# The display process and the commands; the network and media processes beside it in libexec.
install -D -m 0755 "$bins/splashboard" "$stage/usr/bin/splashboard"
install -D -m 0755 "$bins/splashboard-net" "$stage/usr/libexec/splashboard/splashboard-net"
install -D -m 0755 "$bins/splashboard-media" "$stage/usr/libexec/splashboard/splashboard-media"
build_ids=""
for program in "$stage/usr/bin/splashboard" "$stage/usr/libexec/splashboard/splashboard-net" \
               "$stage/usr/libexec/splashboard/splashboard-media"; do
    # The symbols and debug information go to the dbgsym package, named by the build id
    # the stripped program keeps.
    id=$(readelf -n "$program" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
    [ -n "$id" ] || { echo "$program has no build id" >&2; exit 1; }
    build_ids="$build_ids $id"
    debug_file="$debug_stage/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
    mkdir -p "$(dirname "$debug_file")"
    $objcopy --only-keep-debug --compress-debug-sections "$program" "$debug_file"
    chmod 0644 "$debug_file"
    $strip --strip-unneeded --remove-section=.comment --remove-section=.note "$program"
done

share="$stage/usr/share/splashboard"
install -D -m 0644 assets/default-splash.jpg "$share/default-splash.jpg"
install -D -m 0644 assets/poems.json "$share/poems.json"
for f in assets/demo/*; do install -D -m 0644 "$f" "$share/demo/$(basename "$f")"; done
install -D -m 0644 packaging/splashboard.conf "$stage/etc/splashboard/splashboard.conf"
for unit in splashboard.service splashboard-net.service splashboard-net.socket; do
    install -D -m 0644 "packaging/$unit" "$stage/usr/lib/systemd/system/$unit"
done
install -D -m 0644 packaging/splashboard.tmpfiles "$stage/usr/lib/tmpfiles.d/splashboard.conf"
install -D -m 0644 packaging/splashboard.udev "$stage/usr/lib/udev/rules.d/70-splashboard.rules"
install -D -m 0644 packaging/getty-tty1-splashboard.conf "$stage/usr/lib/systemd/system/getty@tty1.service.d/splashboard.conf"
install -d "$stage/usr/share/man/man1" "$stage/usr/share/doc/splashboard"
gzip -9n < packaging/splashboard.1 > "$stage/usr/share/man/man1/splashboard.1.gz"
gzip -9n < packaging/changelog > "$stage/usr/share/doc/splashboard/changelog.gz"
install -m 0644 packaging/copyright "$stage/usr/share/doc/splashboard/copyright"
install -m 0644 docs/feed.schema.json "$stage/usr/share/doc/splashboard/feed.schema.json"
chmod 0644 "$stage/usr/share/man/man1/splashboard.1.gz" "$stage/usr/share/doc/splashboard/changelog.gz"

for script in postinst prerm postrm; do install -m 0755 "packaging/$script" "$stage/DEBIAN/$script"; done
echo /etc/splashboard/splashboard.conf > "$stage/DEBIAN/conffiles"

# Shared libraries the three programs link, as Debian package dependencies. SDL2 is no
# link of theirs: the display loads it to open a window (on the console it never does),
# so it is recommended, installed by default, and a console-only kiosk may go without.
work=$(mktemp -d)
mkdir -p "$work/debian"
printf 'Source: splashboard\n\nPackage: splashboard\nArchitecture: any\n' > "$work/debian/control"
shlibs=$(cd "$work" && $shlibdeps -O -e "$OLDPWD/$stage/usr/bin/splashboard" \
    -e "$OLDPWD/$stage/usr/libexec/splashboard/splashboard-net" \
    -e "$OLDPWD/$stage/usr/libexec/splashboard/splashboard-media" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
rm -rf "$work"
[ -n "$shlibs" ] || { echo "dpkg-shlibdeps found no dependencies" >&2; exit 1; }

size=$(du -k -s --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<CONTROL
Package: splashboard
Version: $version
Architecture: $arch
Maintainer: Splashboard developers <splashboard@example.org>
Installed-Size: $size
Depends: $shlibs, fonts-wqy-microhei | fonts-noto-cjk, passwd
Recommends: libsdl2-2.0-0
Section: misc
Priority: optional
Description: full-screen splash display for kiosks
 Splashboard boots a kiosk screen straight into a campaign picture with a
 live skip countdown button, then a detail screen with a poetry panel that
 refreshes on a timeline. Campaigns come from a JSON feed; each is shown at
 most as many times as the feed allows on this device. Everything is kept in
 SQLite and pictures are cached on disk, so the screen keeps working offline.
 A systemd service starts it on tty1 at boot.
CONTROL

(cd "$stage" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles" "$stage/DEBIAN/md5sums"

dpkg-deb --root-owner-group -Zxz --build "$stage" "build/$name.deb" >/dev/null

debug_size=$(du -k -s --exclude=DEBIAN "$debug_stage" | cut -f1)
cat > "$debug_stage/DEBIAN/control" <<CONTROL
Package: splashboard-dbgsym
Source: splashboard
Version: $version
Architecture: $arch
Maintainer: Splashboard developers <splashboard@example.org>
Installed-Size: $debug_size
Depends: splashboard (= $version)
Section: debug
Priority: optional
Build-Ids:$build_ids
Description: debug symbols for splashboard
 The symbols and debug information of splashboard's three programs, found by
 their build ids: with this installed, gdb, coredumpctl and the backtraces
 systemd-coredump writes to the journal name the functions of a crash.
CONTROL
(cd "$debug_stage" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$debug_stage/DEBIAN/md5sums"
chmod 0644 "$debug_stage/DEBIAN/control" "$debug_stage/DEBIAN/md5sums"
dpkg-deb --root-owner-group -Zxz --build "$debug_stage" "build/$debug_name.deb" >/dev/null
echo "build/$debug_name.deb"
echo "build/$name.deb"

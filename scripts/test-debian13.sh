#!/bin/sh
# `make test` with Debian 13's own Swift (swiftlang 6.0.3), the compiler a Pi owner has, in a
# Debian 13 root that starts with only git and make: so a test only a newer Swift reads fails
# here, and the two commands are tried as a fresh Debian 13 runs them. As root, on Debian.
# It tests the committed HEAD (a fresh clone inside the root). The root is kept under
# $SPLASH_ROOTS, else /var/cache/splashboard-build, for later runs; its packages are installed
# by `make test` itself, the first time. .ci/run calls it after the host's `make test`.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
[ "$(id -u)" -eq 0 ] || { echo "test-debian13: run it as root (it makes a Debian 13 root with mmdebstrap and chroots into it)" >&2; exit 2; }
sh scripts/install-deps.sh mmdebstrap debian-archive-keyring
dir="${SPLASH_ROOTS:-/var/cache/splashboard-build}/trixie-$(dpkg --print-architecture)-tests"
if [ ! -e "$dir/.complete" ]; then
    echo "test-debian13: making a Debian 13 root with git and make ($dir; the first time only)"
    rm -rf "$dir"
    mkdir -p "$(dirname "$dir")"
    mmdebstrap --variant=apt --include=git,make,ca-certificates trixie "$dir" > "$dir.log" 2>&1 \
        || { tail -n 30 "$dir.log" >&2; echo "mmdebstrap failed: see $dir.log" >&2; exit 1; }
    touch "$dir/.complete"
fi
cleanup() {
    for m in tmp dev/shm dev/pts dev sys proc ""; do umount "$dir/$m" 2>/dev/null || umount -l "$dir/$m" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM
# The root a mount point of its own, so tests that make a mount namespace (`unshare -m`) can.
mount --bind "$dir" "$dir"
mount -t proc proc "$dir/proc"
mount --bind /sys "$dir/sys"
mount --bind /dev "$dir/dev"
mount --bind /dev/pts "$dir/dev/pts"
mount -t tmpfs tmpfs "$dir/dev/shm"
mount -t tmpfs tmpfs "$dir/tmp"
# The host's name servers, and the certificates and pip settings it reaches the package indexes with.
cp /etc/resolv.conf "$dir/etc/resolv.conf"
cp /etc/ssl/certs/ca-certificates.crt "$dir/etc/ssl/certs/ca-certificates.crt"
if [ -f /etc/pip.conf ]; then cp /etc/pip.conf "$dir/etc/pip.conf"; fi
rm -rf "$dir/root/splashboard"
git clone -q "$top" "$dir/root/splashboard"
echo "test-debian13: make test in $dir with Debian 13's Swift, on $(git rev-parse --short HEAD)"
chroot "$dir" env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME=/root TERM=dumb LANG=C.UTF-8 \
    sh -c 'cd /root/splashboard && make test'

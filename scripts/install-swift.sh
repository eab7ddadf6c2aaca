#!/bin/sh
# Makes sure a Swift toolchain is on PATH. Where none is, it installs Debian's own
# (`swiftlang`, Debian 13 and Raspberry Pi OS trixie, amd64 and arm64) through apt.
# Elsewhere it says what to install and where to get it.
set -eu
swift=${1:-swift}
command -v "$swift" >/dev/null 2>&1 && exit 0
if [ "$swift" != swift ]; then
    echo "error: SWIFT=$swift is not on PATH; set SWIFT to a Swift 6.0.3 or later, or leave it unset" >&2
    exit 1
fi
[ -r /etc/os-release ] && . /etc/os-release
if apt-cache show swiftlang >/dev/null 2>&1 || { [ "${VERSION_CODENAME:-}" = trixie ] || [ "${VERSION_CODENAME:-}" = forky ]; }; then
    echo "No Swift on PATH: installing Debian's swiftlang (about 500 MB, once)"
    sh "$(dirname "$0")/install-deps.sh" swiftlang
    command -v swift >/dev/null 2>&1 && exit 0
    echo "error: swiftlang is installed, but no swift is on PATH; add /usr/bin to PATH" >&2
    exit 1
fi
echo "error: no Swift on PATH, and ${PRETTY_NAME:-this system} has no swiftlang package." >&2
echo "       Install Swift 6.0.3 or later from swift.org (Install > Linux), put its usr/bin on PATH, and run make again;" >&2
echo "       or use Debian 13 or Raspberry Pi OS (trixie), where make installs Debian's swiftlang itself." >&2
exit 1

#!/bin/sh
# The packaging test: builds the .deb, checks its contents and metadata, runs lintian,
# puts it in a signed apt repository (make repo) and checks the first-boot file, installs
# it from there with apt-get, runs the installed kiosk headless as the splashboard user
# from its installed assets and config, reinstalls and upgrades to the next package from
# the repository (the ledger, the config and the device id stay), purges, and checks that
# nothing is left. It changes the system, so it runs only as root with CI=true.
set -eu
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ] || [ "${CI:-}" != "true" ]; then
    echo "packaging test: skipped (it installs a package: run as root with CI=true)"
    exit 0
fi

sh scripts/install-deps.sh dpkg-dev lintian passwd file systemd
failures=0
check() {
    # check "what" command...: reports and counts a failed check without stopping.
    what=$1
    shift
    if "$@" >/tmp/splashboard-check.log 2>&1; then
        echo "  ok: $what"
    else
        echo "  FAILED: $what"
        sed 's/^/    /' /tmp/splashboard-check.log
        failures=$((failures + 1))
    fi
}

built=$(sh packaging/build-deb.sh)
deb=$(echo "$built" | tail -n 1)
debug_deb=$(echo "$built" | grep dbgsym)
echo "packaging test: $deb, $debug_deb"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for path in ./usr/bin/splashboard ./usr/libexec/splashboard/splashboard-net ./usr/libexec/splashboard/splashboard-media ./usr/share/splashboard/default-splash.jpg ./usr/share/splashboard/poems.json \
    ./usr/share/splashboard/demo/feed.json ./etc/splashboard/splashboard.conf \
    ./usr/lib/systemd/system/splashboard.service ./usr/lib/systemd/system/getty@tty1.service.d/splashboard.conf \
    ./usr/lib/systemd/system/splashboard-net.service ./usr/lib/systemd/system/splashboard-net.socket \
    ./usr/lib/tmpfiles.d/splashboard.conf \
    ./usr/share/man/man1/splashboard.1.gz \
    ./usr/share/doc/splashboard/copyright ./usr/share/doc/splashboard/changelog.gz; do
    check "ships $path" sh -c "echo \"\$1\" | grep -qx \"\$2\"" _ "$contents" "$path"
done
depends=$(dpkg-deb -f "$deb" Depends)
check "Depends names the fonts" sh -c "echo \"\$1\" | grep -q 'fonts-wqy-microhei | fonts-noto-cjk'" _ "$depends"
check "Depends names HarfBuzz, FreeType and pixman from dpkg-shlibdeps" sh -c "echo \"\$1\" | grep -q 'libharfbuzz0b' && echo \"\$1\" | grep -q 'libfreetype6' && echo \"\$1\" | grep -q 'libpixman-1-0'" _ "$depends"
check "SDL2 is recommended (loaded for a window), not a dependency" sh -c "dpkg-deb -f \"\$1\" Recommends | grep -qx 'libsdl2-2.0-0' && ! echo \"\$2\" | grep -q libsdl2" _ "$deb" "$depends"
check "the config file is a conffile" sh -c "dpkg-deb -I \"\$1\" conffiles | grep -qx /etc/splashboard/splashboard.conf" _ "$deb"
check "the binary is stripped" sh -c "dpkg-deb --fsys-tarfile \"\$1\" | tar -xO ./usr/bin/splashboard > /tmp/splashboard-bin && ! file /tmp/splashboard-bin | grep -q 'not stripped'" _ "$deb"
check "the network program is stripped" sh -c "dpkg-deb --fsys-tarfile \"\$1\" | tar -xO ./usr/libexec/splashboard/splashboard-net > /tmp/splashboard-net-bin && ! file /tmp/splashboard-net-bin | grep -q 'not stripped'" _ "$deb"
check "the display program links no networking code (no libcurl, no FoundationNetworking)" sh -c '! ldd /tmp/splashboard-bin | grep -Ei "curl|FoundationNetworking"'
check "the display program links no SDL, audio, X11 or Wayland (a window loads SDL2 when it opens)" sh -c '! ldd /tmp/splashboard-bin | grep -Ei "libSDL2|libpulse|libasound|libX11|libwayland"'
check "the network program is the one that links libcurl" sh -c 'ldd /tmp/splashboard-net-bin | grep -q libcurl'
check "the network program links no SDL, X11 or Wayland (it decodes pictures with TurboJPEG and libpng)" sh -c '! ldd /tmp/splashboard-net-bin | grep -Ei "libSDL2|libX11|libwayland"'
check "Depends names FFmpeg's libavcodec from dpkg-shlibdeps" sh -c "echo \"\$1\" | grep -q 'libavcodec59'" _ "$depends"
check "only the media program links FFmpeg (libavcodec, libavformat)" sh -c "dpkg-deb --fsys-tarfile \"\$1\" | tar -xO ./usr/libexec/splashboard/splashboard-media > /tmp/splashboard-media-bin &&
    ldd /tmp/splashboard-media-bin | grep -q libavcodec && ldd /tmp/splashboard-media-bin | grep -q libavformat &&
    ! ldd /tmp/splashboard-bin | grep -Ei 'libav(codec|format)' && ! ldd /tmp/splashboard-net-bin | grep -Ei 'libav(codec|format)'" _ "$deb"
check "the media program links no SDL and no networking code" sh -c '! ldd /tmp/splashboard-media-bin | grep -Ei "libSDL2|curl|FoundationNetworking"'
check "every option is in the config file" sh -c '
    for key in $(/tmp/splashboard-bin --help | sed -n "s/^ *--\([a-z-]*\).*/\1/p"); do
        case "$key" in config|headless|snapshot|exit-after|clock|script|help|version|json) continue ;; esac
        grep -q "^# $key = " packaging/splashboard.conf || { echo "missing: $key"; exit 1; }
    done'
check "no program carries ICU's data (Foundation's essentials alone)" sh -c '! grep -q icudt /tmp/splashboard-bin && ! grep -q icudt /tmp/splashboard-net-bin && ! grep -q icudt /tmp/splashboard-media-bin'
check "the package is at most 15 MB and installs at most 50 MB" sh -c "[ \$(stat -c %s \"\$1\") -le 15000000 ] && [ \$(dpkg-deb -f \"\$1\" Installed-Size) -le 50000 ]" _ "$deb"
check "the dbgsym package holds each program's debug file under its build id, with its functions' names" sh -c '
    for program in /tmp/splashboard-bin /tmp/splashboard-net-bin /tmp/splashboard-media-bin; do
        id=$(readelf -n "$program" | sed -n "s/.*Build ID: \([0-9a-f]*\).*/\1/p")
        file=./usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
        dpkg-deb --fsys-tarfile "$1" | tar -xO "$file" > /tmp/splashboard-debug || { echo "no $file for $program"; exit 1; }
        readelf -n /tmp/splashboard-debug | grep -q "Build ID: $id" && nm /tmp/splashboard-debug | grep -q SplashCore || exit 1
    done
    dpkg-deb -f "$1" Depends | grep -qx "splashboard (= $(dpkg-deb -f "$2" Version))"' _ "$debug_deb" "$deb"
check "lintian reports no errors" lintian --fail-on error "$deb"

# The fleet's repository (make repo) from this package, in a folder apt's sandbox can read,
# and the package after it: the same programs, numbered as the next commit's build would be.
sh scripts/install-deps.sh reprepro gnupg cloud-init
fleet=$(mktemp -d /tmp/splashboard-fleet.XXXXXX)
chmod 755 "$fleet"
version=$(dpkg-deb -f "$deb" Version)
dpkg-deb -R "$deb" "$fleet/next" && sed -i "s/^Version: .*/Version: $version.1/" "$fleet/next/DEBIAN/control"
dpkg-deb -b -Zxz "$fleet/next" "$fleet/splashboard_$version.1_$(dpkg-deb -f "$deb" Architecture).deb" >/dev/null
next_deb=$(ls "$fleet"/splashboard_*.deb)
dpkg-deb -R "$deb" "$fleet/older" && sed -i "s/^Version: .*/Version: 0.0.1/" "$fleet/older/DEBIAN/control"
dpkg-deb -b -Zxz "$fleet/older" "$fleet/older.deb" >/dev/null
repo() { REPO_DIR="$fleet/repo" REPO_KEY_DIR="$fleet/key" REPO_URL=http://kiosk.example.com/splashboard sh scripts/repo.sh "$@"; }
check "make repo signs a repository whose InRelease verifies against the key beside it" sh -c '
    REPO_DIR="$1/repo" REPO_KEY_DIR="$1/key" REPO_URL=http://kiosk.example.com/splashboard sh scripts/repo.sh "$2" &&
    gpgv --keyring "$1/repo/splashboard-archive-keyring.pgp" "$1/repo/dists/stable/InRelease" &&
    [ -s "$1/repo/dists/stable/Release.gpg" ] && [ -n "$(find "$1/repo/pool" -name "splashboard_*.deb")" ]' _ "$fleet" "$deb"
check "make repo refuses a package older than the repository's, and the same one again changes nothing" sh -c '
    ! REPO_DIR="$1/repo" REPO_KEY_DIR="$1/key" sh scripts/repo.sh "$1/older.deb" 2>"$1/refused" &&
    grep -q "is not newer than the repository" "$1/refused" &&
    REPO_DIR="$1/repo" REPO_KEY_DIR="$1/key" sh scripts/repo.sh "$2" | grep -q "is in the repository already"' _ "$fleet" "$deb"
check "the first-boot file, and the one make repo filled in with the address and key, pass cloud-init schema" sh -c '
    cloud-init schema --config-file packaging/cloud-init/user-data.yaml &&
    cloud-init schema --config-file "$1/repo/user-data.yaml" &&
    grep -q "http://kiosk.example.com/splashboard/ stable main" "$1/repo/user-data.yaml" &&
    grep -q "^        -----BEGIN PGP PUBLIC KEY BLOCK-----" "$1/repo/user-data.yaml"' _ "$fleet"
# A device that trusts the key and has the source, as README's fleet section says.
printf '%s\n' 'Types: deb' "URIs: file://$fleet/repo/" 'Suites: stable' 'Components: main' \
    "Signed-By: $fleet/repo/splashboard-archive-keyring.pgp" > /etc/apt/sources.list.d/splashboard-test.sources
trap 'rm -f /etc/apt/sources.list.d/splashboard-test.sources; rm -rf "$fleet"' EXIT
apt-get update -qq >/dev/null 2>&1 || true

dpkg -s splashboard >/dev/null 2>&1 && apt-get purge -y -qq splashboard >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq splashboard >/tmp/splashboard-install.log 2>&1 \
    || { cat /tmp/splashboard-install.log; echo "packaging test: install from the repository failed"; exit 1; }
check "plain apt-get installs the package from the signed repository" sh -c '[ "$(dpkg-query -W -f "\${Version}" splashboard)" = "$1" ]' _ "$version"
check "the display's user and the network process's share splashboard-data, and neither is in video, render or input system-wide" sh -c '
    [ "$(id -nG splashboard | tr " " "\n" | sort | tr "\n" " ")" = "splashboard splashboard-data " ] &&
    [ "$(id -nG splashboard-net | tr " " "\n" | sort | tr "\n" " ")" = "splashboard-data splashboard-net " ]'
check "the display's unit gives the device groups" grep -qx 'SupplementaryGroups=video render input splashboard-data' /usr/lib/systemd/system/splashboard.service
check "the config file is not world-readable (0640 root:splashboard-data)" sh -c '[ "$(stat -c %a:%U:%G /etc/splashboard/splashboard.conf)" = 640:root:splashboard-data ]'
check "the data folder is shared (2770), the cache the network process's (2750)" sh -c '
    [ "$(stat -c %U:%G:%a /var/lib/splashboard)" = splashboard-net:splashboard-data:2770 ] &&
    [ "$(stat -c %U:%G:%a /var/cache/splashboard)" = splashboard-net:splashboard-data:2750 ]'
check "the service is enabled" test -L /etc/systemd/system/multi-user.target.wants/splashboard.service
check "the login prompt on tty1 gives way while the service is enabled" grep -qx 'ConditionPathExists=!/etc/systemd/system/multi-user.target.wants/splashboard.service' '/usr/lib/systemd/system/getty@tty1.service.d/splashboard.conf'
check "the network process's socket is enabled" test -L /etc/systemd/system/sockets.target.wants/splashboard-net.socket
check "the unit never waits for the network" sh -c '! grep -q network-online /usr/lib/systemd/system/splashboard.service'
check "the display's unit has no address family but AF_UNIX, in a network namespace of its own" sh -c 'grep -qx "RestrictAddressFamilies=AF_UNIX" /usr/lib/systemd/system/splashboard.service && grep -qx "PrivateNetwork=yes" /usr/lib/systemd/system/splashboard.service'
check "the network process has no devices" grep -qx 'PrivateDevices=yes' /usr/lib/systemd/system/splashboard-net.service
check "the network process cannot reach link-local addresses (cloud metadata)" grep -qx 'IPAddressDeny=169.254.0.0/16 fe80::/10' /usr/lib/systemd/system/splashboard-net.service
for unit in splashboard.service splashboard-net.service splashboard-net.socket; do
    check "systemd-analyze verify is clean for $unit" sh -c "[ -z \"\$(systemd-analyze verify /usr/lib/systemd/system/$unit 2>&1)\" ]"
done

# The installed kiosk, as the service runs it: its user, its folders, its config.
# On the real clock, as the service runs it (a trial on the virtual clock never writes the
# device's ledger: checked below).
printf 'countdown = 2\n' >> /etc/splashboard/splashboard.conf
run_kiosk() {
    runuser -u splashboard -- /usr/bin/splashboard --headless --data-dir /var/lib/splashboard --exit-after detail \
        > /tmp/splashboard-run.json
}
check "sync as root runs as the folder's owner, splashboard-net, and leaves nothing of root's" sh -c '
    /usr/bin/splashboard sync 2>/tmp/splashboard-sync.err | grep -q "applied; 3 campaigns" &&
    grep -q "running as splashboard-net" /tmp/splashboard-sync.err &&
    [ -z "$(find /var/lib/splashboard /var/cache/splashboard -user root)" ] &&
    [ -z "$(find /var/cache/splashboard -type f ! -perm 0640)" ] &&
    [ "$(stat -c %a /var/lib/splashboard/splashboard.db)" = 660 ]'
check "the installed kiosk runs headless as splashboard" run_kiosk
check "it shows the demo campaign from the installed assets" grep -q '"event":"splash".*"campaign":"spring-tea","remaining":9999' /tmp/splashboard-run.json
check "it reads the installed config (countdown 2)" sh -c '[ "$(grep -c "\"event\":\"countdown\"" /tmp/splashboard-run.json)" -eq 2 ]'
check "it reaches the detail screen" grep -q '"event":"detail"' /tmp/splashboard-run.json
check "its database is in /var/lib/splashboard" test -s /var/lib/splashboard/splashboard.db
check "a sync as the splashboard user says it cannot write the cache, whose it is and what to run" sh -c '
    ! runuser -u splashboard -- /usr/bin/splashboard sync 2>/tmp/splashboard-sync.err &&
    grep -q "cache folder /var/cache/splashboard belongs to splashboard-net:splashboard-data" /tmp/splashboard-sync.err &&
    grep -q "run this as root (sudo splashboard …: a sync runs as splashboard-net)" /tmp/splashboard-sync.err'
check "cache clear as the splashboard user says whose the cache is instead of emptying nothing" sh -c '
    ! runuser -u splashboard -- /usr/bin/splashboard cache clear 2>/tmp/splashboard-clear.err &&
    grep -q "cache folder /var/cache/splashboard belongs to splashboard-net:splashboard-data" /tmp/splashboard-clear.err'
check "campaigns as the splashboard user reads the same database" sh -c 'runuser -u splashboard -- /usr/bin/splashboard campaigns | grep -q "spring-tea.*9999/10000"'

DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --reinstall "./$deb" >/dev/null 2>&1
check "a reinstall keeps the ledger and the edited config" sh -c 'runuser -u splashboard -- /usr/bin/splashboard --headless --data-dir /var/lib/splashboard --exit-after splash | grep -q "\"remaining\":9998" && grep -q "^countdown = 2" /etc/splashboard/splashboard.conf'
runuser -u splashboard -- /usr/bin/splashboard campaigns --json | grep -o '"device":"[^"]*"' | head -n 1 > /tmp/splashboard-device
repo "$next_deb" >/dev/null
apt-get update -qq >/dev/null 2>&1 || true
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --only-upgrade splashboard >/tmp/splashboard-upgrade.log 2>&1 || cat /tmp/splashboard-upgrade.log
check "an upgrade from the repository takes the next package and keeps the ledger, the config and the device id" sh -c '
    [ "$(dpkg-query -W -f "\${Version}" splashboard)" = "$1.1" ] &&
    runuser -u splashboard -- /usr/bin/splashboard --headless --data-dir /var/lib/splashboard --exit-after splash | grep -q "\"remaining\":9997" &&
    grep -q "^countdown = 2" /etc/splashboard/splashboard.conf &&
    [ -s /tmp/splashboard-device ] &&
    [ "$(runuser -u splashboard -- /usr/bin/splashboard campaigns --json | grep -o "\"device\":\"[^\"]*\"" | head -n 1)" = "$(cat /tmp/splashboard-device)" ]' _ "$version"
check "a trial on the virtual clock naming the device's data folder leaves its ledger alone" sh -c '
    runuser -u splashboard -- /usr/bin/splashboard --headless --clock virtual --data-dir /var/lib/splashboard --exit-after splash \
        2>/tmp/splashboard-trial.err >/dev/null &&
    grep -q "never writes in the device.s data folder /var/lib/splashboard" /tmp/splashboard-trial.err &&
    runuser -u splashboard -- /usr/bin/splashboard campaigns | grep -q "spring-tea.*9997/10000"'

if unshare -n true 2>/dev/null; then
    check "with no network at all (unshare -n) the installed kiosk still shows the stored campaign" sh -c 'unshare -n runuser -u splashboard -- /usr/bin/splashboard --headless --data-dir /var/lib/splashboard --exit-after splash | grep -q "\"event\":\"splash\".*\"campaign\":\"spring-tea\""'
fi

DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq splashboard >/dev/null 2>&1
for path in /usr/bin/splashboard /usr/libexec/splashboard /usr/share/splashboard /etc/splashboard /var/lib/splashboard /var/cache/splashboard \
    /usr/lib/systemd/system/splashboard.service /etc/systemd/system/multi-user.target.wants/splashboard.service \
    /usr/lib/systemd/system/splashboard-net.socket /etc/systemd/system/sockets.target.wants/splashboard-net.socket; do
    check "purge leaves no $path" test ! -e "$path"
done
check "purge removes the users and the shared group" sh -c '! getent passwd splashboard && ! getent passwd splashboard-net && ! getent group splashboard-data'

if [ "$failures" -ne 0 ]; then
    echo "packaging test: $failures checks failed"
    exit 1
fi
echo "packaging test: all checks passed"

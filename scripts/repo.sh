#!/bin/sh
# `make repo`: a signed apt repository under build/repo from the newest packages in build/
# (amd64, and arm64 when built), both architectures in one suite, made with reprepro:
# dists/<suite>/InRelease (and Release, Release.gpg), pool/, and beside them the public
# key devices trust, splashboard-archive-keyring.pgp. Any static web server serves the
# folder as it is.
# REPO_URL=https://… also writes build/repo/user-data.yaml, packaging/cloud-init's
# first-boot file with this repository's address and key in it.
#
# Signed with REPO_KEY (a key's fingerprint in your own keyring: gpg --list-secret-keys),
# else with a key made the first time and kept in build/repo-key (no passphrase; keep
# the folder, or every device must be given a new key). A package whose version is not
# newer than the one the repository holds for its architecture is refused: commit, then
# make deb again (scripts/version.sh numbers each commit after the last).
#
# Given packages as arguments, it adds those instead; REPO_DIR and REPO_KEY_DIR put the
# repository and the key made for it elsewhere (the packaging test does).
set -eu
cd "$(dirname "$0")/.."
repo=${REPO_DIR:-build/repo}
suite=${REPO_SUITE:-stable}
say() { echo "make repo: $*"; }
fail() { echo "make repo: $*" >&2; exit 1; }

key=${REPO_KEY:-}
if [ -z "$key" ]; then
    GNUPGHOME=$(realpath -m "${REPO_KEY_DIR:-build/repo-key}")
    export GNUPGHOME
    if [ ! -d "$GNUPGHOME" ]; then
        mkdir -p "$GNUPGHOME" && chmod 700 "$GNUPGHOME"
        say "making a signing key in $GNUPGHOME (the first time only; to sign with your own: make repo REPO_KEY=FINGERPRINT)"
        gpg --batch --quiet --passphrase '' --quick-gen-key \
            "Splashboard archive on $(hostname) <splashboard-archive@$(hostname)>" ed25519 sign never \
            || fail "gpg could not make a key in $GNUPGHOME"
    fi
fi
fingerprint=$(gpg --batch --with-colons --list-secret-keys ${key:+"$key"} 2>/dev/null | awk -F: '/^fpr:/ { print $10; exit }')
[ -n "$fingerprint" ] || fail "no secret key ${key:-in ${GNUPGHOME:-your keyring}} to sign with (gpg --list-secret-keys lists yours)"

mkdir -p "$repo/conf"
cat > "$repo/conf/distributions" <<CONF
Origin: Splashboard
Label: Splashboard
Suite: $suite
Codename: $suite
Architectures: amd64 arm64
Components: main
Description: Splashboard kiosk packages
SignWith: $fingerprint
CONF

# The packages given, else the newest of each architecture in build/, by Debian's version order.
if [ $# -eq 0 ]; then
    for arch in amd64 arm64; do
        newest=""
        newest_version=""
        for deb in build/splashboard_*_"$arch".deb; do
            [ -e "$deb" ] || continue
            v=$(dpkg-deb -f "$deb" Version)
            if [ -z "$newest" ] || dpkg --compare-versions "$v" gt "$newest_version"; then
                newest=$deb
                newest_version=$v
            fi
        done
        [ -n "$newest" ] && set -- "$@" "$newest"
    done
fi
for newest in "$@"; do
    [ -f "$newest" ] || fail "$newest: no such package"
    newest_version=$(dpkg-deb -f "$newest" Version)
    arch=$(dpkg-deb -f "$newest" Architecture)
    held=$(reprepro -b "$repo" -A "$arch" --list-format '${version}\n' list "$suite" splashboard 2>/dev/null | head -n 1)
    if [ -n "$held" ]; then
        if [ "$held" = "$newest_version" ]; then
            held_file=$(reprepro -b "$repo" -A "$arch" --list-format '${$filekey}\n' list "$suite" splashboard | head -n 1)
            if cmp -s "$newest" "$repo/$held_file"; then
                say "$arch: $newest_version is in the repository already"
                continue
            fi
        fi
        dpkg --compare-versions "$newest_version" gt "$held" || fail "$arch: $newest ($newest_version) is not newer than \
the repository's $held: devices would not upgrade to it. Commit your change, then make deb again (its version comes from the commit)."
    fi
    reprepro -b "$repo" --silent includedeb "$suite" "$newest" || fail "reprepro could not add $newest"
    dbgsym="$(dirname "$newest")/splashboard-dbgsym_${newest_version}_$arch.deb"
    [ -e "$dbgsym" ] && reprepro -b "$repo" --silent includedeb "$suite" "$dbgsym"
    say "$arch: added $newest_version"
done
[ -n "$(reprepro -b "$repo" list "$suite" 2>/dev/null)" ] || fail "no package in build/ to put in the repository: make deb first"

gpg --batch --export "$fingerprint" > "$repo/splashboard-archive-keyring.pgp"
gpg --batch --armor --export "$fingerprint" > "$repo/splashboard-archive-keyring.asc"
# With REPO_URL, the first-boot file for this repository, its address and key filled in.
if [ -n "${REPO_URL:-}" ]; then
    awk -v url="${REPO_URL%/}/" -v keyfile="$repo/splashboard-archive-keyring.asc" '
        /source: "deb \[signed-by=\$KEY_FILE\]/ { sub(/https:[^ ]*/, url) }
        /-----BEGIN PGP PUBLIC KEY BLOCK-----/ {
            indent = substr($0, 1, index($0, "-") - 1)
            while ((getline line < keyfile) > 0) print indent line
            skipping = 1; next
        }
        skipping && /-----END PGP PUBLIC KEY BLOCK-----/ { skipping = 0; next }
        skipping { next }
        { print }' packaging/cloud-init/user-data.yaml > "$repo/user-data.yaml"
    say "$repo/user-data.yaml: the first-boot file for $REPO_URL (set its settings and time zone)"
fi
gpgv --keyring "$(realpath "$repo")/splashboard-archive-keyring.pgp" "$repo/dists/$suite/InRelease" 2>/dev/null \
    || fail "dists/$suite/InRelease does not verify against the key beside it"
say "$repo holds:"
reprepro -b "$repo" list "$suite" | sed 's/^/  /'
say "signed by $fingerprint; serve $repo with any web server, and on each device:"
url=${REPO_URL:+${REPO_URL%/}/}
cat <<HOW
  sudo install -D -m 644 splashboard-archive-keyring.pgp /usr/share/keyrings/splashboard-archive-keyring.pgp
  printf '%s\\n' 'Types: deb' 'URIs: ${url:-https://YOUR-SERVER/splashboard/}' 'Suites: $suite' 'Components: main' \\
      'Signed-By: /usr/share/keyrings/splashboard-archive-keyring.pgp' | sudo tee /etc/apt/sources.list.d/splashboard.sources
  sudo apt-get update && sudo apt-get install splashboard
HOW

# Splashboard — `make run` and `make test` install what is missing, build and go.

SWIFT ?= swift
# Debian packages the build, the tests and the kiosk need.
BUILD_PACKAGES := pkg-config libsdl2-dev libsdl2-image-dev libharfbuzz-dev libfreetype-dev libgif-dev libpixman-1-dev libsqlite3-dev \
                  libfontconfig-dev libx11-dev libxext-dev libdrm-dev libturbojpeg0-dev libpng-dev libwebp-dev libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libqrencode-dev libcurl4-openssl-dev fonts-wqy-microhei
# Debian packages only the tests need: an X server of their own, a way to click in it,
# the desktop's validator of the autostart entry,
# the real clients that read what the kiosk writes (promtool, node exporter, zbarimg)
# jpegtran to make progressive JPEGs, a font with Arabic for the font fallback, and
# strace to see in what order the media process filters itself and reads a clip.
TEST_PACKAGES := xvfb xdotool desktop-file-utils openssl strace mount ffmpeg libjpeg-turbo-progs prometheus prometheus-node-exporter zbar-tools fonts-dejavu-core
# Arguments for `make run`, e.g. make run ARGS="--countdown 5 --fit fill".
ARGS ?=

.PHONY: all deps build release run test clean screenshots deb repo reliability bench vm-test vm-bench

all: build

deps:
	@sh scripts/install-swift.sh $(SWIFT)
	@sh scripts/install-deps.sh $(BUILD_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: release
	./.build/release/splashboard $(ARGS)

# The packaging test runs only as root with CI=true (it installs the package); it goes
# first so that the Swift test summary closes the output.
test: deps
	@sh scripts/install-deps.sh $(TEST_PACKAGES)
	@sh scripts/install-pydeps.sh
	sh packaging/test-deb.sh
	$(SWIFT) build
	$(SWIFT) test

# The long checks behind docs/RELIABILITY.md: 200 kills, a 72-hour virtual soak, every
# fault of the fault server, and a short libFuzzer run of each target (FUZZ_SECONDS each).
FUZZ_SECONDS ?= 60
reliability: release
	@sh scripts/install-deps.sh imagemagick gnuplot-nox
	mkdir -p build/reliability
	python3 scripts/crash-loop.py --binary .build/release/splashboard --runs 200 --kill either | tee build/reliability/crash-loop.json
	python3 scripts/soak.py --binary .build/release/splashboard --hours 72 --csv build/reliability/soak.csv \
		| tee build/reliability/soak.json
	gnuplot -e "set terminal png size 900,420; set output 'docs/soak.png'; \
		set datafile separator ','; set xlabel 'simulated hours'; set ylabel 'resident memory (MiB)'; \
		set y2label 'open file descriptors'; set y2tics; set yrange [0:*]; set y2range [0:40]; set key bottom right; \
		plot 'build/reliability/soak.csv' using 1:2 skip 1 with lines title 'RSS', \
		'' using 1:3 skip 1 axes x1y2 with lines title 'fds'"
	python3 scripts/fault-report.py --binary .build/release/splashboard | tee build/reliability/faults.md
	for target in feed config image media; do sh scripts/fuzz.sh $$target $(FUZZ_SECONDS); done

# Side by side with feh under Xvfb, plus idle, skip latency and a 10,000-campaign sync;
# the figures behind docs/BENCHMARKS.md. Not part of `make test`.
# Measures the programs as the .deb ships them (release, Swift runtime linked statically,
# stripped: taken from the package's staging folder), and the package itself.
bench: deps deb
	@sh scripts/install-deps.sh xvfb xdotool feh imagemagick nginx-light ffmpeg mpv time
	rm -rf build/bench-programs && mkdir -p build/bench-programs
	stage="$$(ls -td build/splashboard_*_$(ARCH) | head -n 1)"; \
		cp "$$stage/usr/bin/splashboard" "$$stage/usr/libexec/splashboard/splashboard-net" \
		   "$$stage/usr/libexec/splashboard/splashboard-media" build/bench-programs/
	python3 scripts/bench.py --binary build/bench-programs/splashboard --deb "$$(ls -t build/splashboard_*_$(ARCH).deb | head -n 1)" \
		--runs 25 --json build/bench.json --markdown build/bench.md

# build/splashboard_<version>_<arch>.deb, for this machine's own architecture by default
# (on a Pi, the arm64 package, built on the Pi). ARCH=arm64 on an amd64 machine, as root: the
# package for Raspberry Pi OS 64-bit and Debian 13, cross-built with Debian 13's own Swift in
# roots kept outside the clone, under /var/cache/splashboard-build (the first build on a
# machine fetches them: about 10 minutes; later builds about 5). .ci/run builds it after
# `make test`, so the Pi's compiler checks every change.
ARCH ?= $(shell dpkg --print-architecture)
# Debian's names, also when ARCH comes from the environment in the kernel's (x86_64, aarch64).
override ARCH := $(patsubst x86_64,amd64,$(patsubst aarch64,arm64,$(ARCH)))
HOST_ARCH := $(shell dpkg --print-architecture)
deb:
ifeq ($(ARCH),$(HOST_ARCH))
	@$(MAKE) --no-print-directory deps
	@# g++ brings the C++ library the static Swift runtime links (Debian 13's swiftlang has none of its own).
	@sh scripts/install-deps.sh dpkg-dev g++
	sh packaging/build-deb.sh
else ifeq ($(ARCH),arm64)
	@sh scripts/install-deps.sh mmdebstrap dpkg-dev debian-archive-keyring
	sh packaging/build-deb-arm64.sh
else
	@echo "make deb: ARCH=$(ARCH) is not a package this machine builds (amd64 here; arm64 from amd64)" >&2; exit 2
endif

# A signed apt repository in build/repo from the newest packages in build/ (both
# architectures in one suite), for a fleet to install and upgrade from (README: "A fleet").
# REPO_KEY=FINGERPRINT signs with your own key; otherwise with one kept in build/repo-key.
repo:
	@sh scripts/install-deps.sh reprepro gnupg dpkg-dev
	sh scripts/repo.sh

# The boot test (docs/KIOSK-BOOT.md): the .deb on a minimal Debian 12 in QEMU, no X, no
# Mesa; the console, touch, keys, rotation, hotplug, watchdog, sandbox, idle, boot timing
# and 30 power cuts. Slow (about an hour under TCG): not part of `make test`.
# VM_ARGS="--only console --cuts 5" runs a part of it.
VM_ARGS ?=
# ARCH=arm64: the arm64 .deb on Debian 13 in qemu-system-aarch64 (-M virt, a Cortex-A72),
# its image made under qemu-user; the first run makes a base system (about 25 minutes).
ifeq ($(ARCH),arm64)
VM_PACKAGES := mmdebstrap qemu-system-arm qemu-user-static binfmt-support arch-test qemu-utils e2fsprogs ffmpeg libjpeg-turbo-progs reprepro gnupg socat dosfstools mtools
else
VM_PACKAGES := mmdebstrap qemu-system-x86 qemu-utils e2fsprogs ovmf ffmpeg libjpeg-turbo-progs reprepro gnupg socat dosfstools mtools
endif
vm-test: deb
	@sh scripts/install-deps.sh $(VM_PACKAGES)
	python3 scripts/vm/vm-test.py --deb "$$(ls -t build/splashboard_*_$(ARCH).deb | head -n 1)" $(VM_ARGS)

# The console benchmark (docs/BENCHMARKS.md): the kiosk against fbi in the boot test's VM,
# on the same pictures and screen. VM_BENCH_ARGS="--runs 9 --gpu virtio"; "--against OLD.deb"
# measures an earlier package beside this one in the same run.
VM_BENCH_ARGS ?=
vm-bench: deb
	@sh scripts/install-deps.sh $(VM_PACKAGES)
	python3 scripts/vm/vm-bench.py --deb "$$(ls -t build/splashboard_*_$(ARCH).deb | head -n 1)" $(VM_BENCH_ARGS)

clean:
	rm -rf .build build

# Regenerates the README's screenshots from headless runs on the bundled demo content,
# from neutral paths (the operator view shows the feed and the folders).
SHOTS = /tmp/splashboard
SHOT = SPLASHBOARD_ASSETS=$(SHOTS)/share ./.build/debug/splashboard --headless --clock virtual \
       --feed $(SHOTS)/share/demo/feed.json --data-dir $(SHOTS)/data --cache-dir $(SHOTS)/cache
screenshots: build
	rm -rf .build/shots $(SHOTS) && mkdir -p .build/shots docs/screenshots $(SHOTS)
	cp -r assets $(SHOTS)/share
	$(SHOT) --exit-after detail --snapshot .build/shots/landscape >/dev/null
	$(SHOT) --exit-after detail --snapshot .build/shots/portrait --size 1080x1920 >/dev/null
	cp .build/shots/landscape/0001-splash.png docs/screenshots/splash.png
	cp "$$(ls .build/shots/landscape/*-detail.png | tail -n 1)" docs/screenshots/detail.png
	cp "$$(ls .build/shots/portrait/*-detail.png | tail -n 1)" docs/screenshots/detail-portrait.png
	printf '0.5 key f2\n' > .build/shots/operator.script
	$(SHOT) --exit-after 2 --script .build/shots/operator.script --device-id lobby-3 --snapshot .build/shots/operator >/dev/null
	cp "$$(ls .build/shots/operator/*-operator.png | tail -n 1)" docs/screenshots/operator.png
	printf '0.5 key f2\n1 tap 110 170\n' > .build/shots/campaign.script
	$(SHOT) --exit-after 2 --script .build/shots/campaign.script --device-id lobby-3 --snapshot .build/shots/campaign >/dev/null
	cp "$$(ls .build/shots/campaign/*-operator.png | tail -n 1)" docs/screenshots/operator-campaign.png

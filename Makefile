# Splashboard — `make run` and `make test` install what is missing, build and go.

SWIFT ?= swift
# Debian packages the build, the tests and the kiosk need.
BUILD_PACKAGES := pkg-config libsdl2-dev libsdl2-image-dev libsdl2-ttf-dev libsqlite3-dev \
                  libfontconfig-dev libcurl4-openssl-dev fonts-wqy-microhei
# Debian packages only the tests need: an X server of their own, and a way to click in it.
TEST_PACKAGES := xvfb xdotool openssl
# Arguments for `make run`, e.g. make run ARGS="--countdown 5 --fit fill".
ARGS ?=

.PHONY: all deps build release run test clean screenshots deb

all: build

deps:
	@command -v $(SWIFT) >/dev/null 2>&1 || { echo "error: no Swift toolchain on PATH; install Swift 6 first" >&2; exit 1; }
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
	sh packaging/test-deb.sh
	$(SWIFT) build
	$(SWIFT) test

# build/splashboard_<version>_<arch>.deb
deb: deps
	@sh scripts/install-deps.sh dpkg-dev
	sh packaging/build-deb.sh

clean:
	rm -rf .build build

# Regenerates the README's screenshots from headless runs on the bundled demo content.
SHOT = ./.build/debug/splashboard --headless --clock virtual \
       --data-dir .build/shots/data --cache-dir .build/shots/cache
screenshots: build
	rm -rf .build/shots && mkdir -p .build/shots docs/screenshots
	$(SHOT) --exit-after detail --snapshot .build/shots/landscape >/dev/null
	$(SHOT) --exit-after detail --snapshot .build/shots/portrait --size 1080x1920 >/dev/null
	cp .build/shots/landscape/0001-splash.png docs/screenshots/splash.png
	cp "$$(ls .build/shots/landscape/*-detail.png | tail -n 1)" docs/screenshots/detail.png
	cp "$$(ls .build/shots/portrait/*-detail.png | tail -n 1)" docs/screenshots/detail-portrait.png
	printf '0.5 key f2\n' > .build/shots/operator.script
	$(SHOT) --exit-after 2 --script .build/shots/operator.script --snapshot .build/shots/operator >/dev/null
	cp "$$(ls .build/shots/operator/*-operator.png | tail -n 1)" docs/screenshots/operator.png

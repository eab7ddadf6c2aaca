#!/bin/sh
# Installs the Python packages the tests' real clients need into .build/pydeps (not into
# the system): opentelemetry-proto, whose official schema the OTLP receiver parses with,
# and jsonschema, which scripts/check-feed-schema.py checks feeds against
# docs/feed.schema.json with.
# Does nothing when they are there already.
set -eu
cd "$(dirname "$0")/.."
target=.build/pydeps
if PYTHONPATH=$target python3 -c 'from opentelemetry.proto.collector.logs.v1 import logs_service_pb2; from jsonschema import Draft202012Validator' 2>/dev/null; then
    exit 0
fi
python3 -m pip --version >/dev/null 2>&1 || sh scripts/install-deps.sh python3-pip
mkdir -p "$target"
echo "Installing into $target: opentelemetry-proto jsonschema"
python3 -m pip install --quiet --disable-pip-version-check --target "$target" opentelemetry-proto jsonschema 2>/dev/null \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages --target "$target" opentelemetry-proto jsonschema

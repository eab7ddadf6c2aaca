#!/usr/bin/env python3
"""Validates campaign feeds against the feed's JSON Schema (docs/feed.schema.json).

    python3 scripts/check-feed-schema.py SCHEMA FILE...

Prints one JSON object per FILE on stdout:

    {"file": "feed.json", "valid": false, "errors": ["campaigns[0].showTime: -1 is less than the minimum of 0"]}

Each error starts with the place of the mistake, `campaigns[0].showTime` style (`(document)`
for the document itself); a missing field is named by the place it is missing from plus
its name (`campaigns[0].picUrl`). A FILE that cannot be read or is not JSON is invalid with
one error saying so.

Exit status: 0 when it ran, whatever the files' validity; 2 when the schema itself is not
valid, when jsonschema is missing (install it with `sh scripts/install-pydeps.sh`), or when
it is called wrongly.
"""

import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, ".build", "pydeps"))

IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(2)


def place(path):
    """`campaigns[0].showTime` for the path ["campaigns", 0, "showTime"]; `(document)` for []."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += "[%d]" % part
        elif IDENTIFIER.match(part):
            text += ("." if text else "") + part
        else:
            text += "[%s]" % json.dumps(part)
    return text or "(document)"


def error_path(error):
    """Where the mistake is: for a missing field, the field's own place."""
    path = list(error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = [name for name in error.validator_value
                   if name not in error.instance and error.message.startswith(repr(name))]
        if missing:
            path.append(missing[0])
    return path


def message(error):
    """jsonschema's message, with a long value clipped and a pattern explained by its description."""
    value = repr(error.instance)
    shown = value if len(value) <= 80 else value[:77] + "..."
    if error.validator == "pattern" and isinstance(error.schema, dict) and "description" in error.schema:
        return "%s does not match %s: %s" % (shown, error.schema.get("title", "the pattern"), error.schema["description"])
    text = shown + error.message[len(value):] if error.message.startswith(value) else error.message
    if error.validator == "maxLength":
        text += " (at most %d characters)" % error.validator_value
    elif error.validator == "maxItems":
        text += " (at most %d)" % error.validator_value
    return text


def no_constants(name):
    # NaN and Infinity are not JSON, whatever Python's json module would allow.
    raise ValueError("%s is not JSON" % name)


def check(validator, name):
    try:
        with open(name, "rb") as f:
            data = f.read()
    except OSError as e:
        return ["(document): cannot be read: %s" % (e.strerror or e)]
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=no_constants)
    except (UnicodeDecodeError, ValueError) as e:
        return ["(document): not JSON: %s" % e]
    errors = sorted(validator.iter_errors(document),
                    key=lambda e: ([(0, p) if isinstance(p, int) else (1, p) for p in error_path(e)], e.message))
    lines = []
    for e in errors:
        line = "%s: %s" % (place(error_path(e)), message(e))
        if line not in lines:
            lines.append(line)
    return lines


def main(argv):
    if len(argv) < 3:
        fail("usage: python3 scripts/check-feed-schema.py SCHEMA FILE...")
    try:
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError
    except ImportError:
        fail("jsonschema (4.0 or later) is missing: run `sh scripts/install-pydeps.sh`")
    try:
        with open(argv[1], encoding="utf-8") as f:
            schema = json.load(f, parse_constant=no_constants)
    except (OSError, ValueError) as e:
        fail("%s: the schema cannot be read as JSON: %s" % (argv[1], e))
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as e:
        fail("%s: the schema is not valid at %s: %s"
             % (argv[1], place(e.absolute_path), e.message.replace("\n", " ")))
    validator = Draft202012Validator(schema)
    for name in argv[2:]:
        errors = check(validator, name)
        print(json.dumps({"file": name, "valid": not errors, "errors": errors}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

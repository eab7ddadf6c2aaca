#!/usr/bin/env python3
"""A network process gone wrong, for the kiosk to survive: started by the kiosk in place
of splashboard-net (SPLASHBOARD_NET), it talks on descriptor 3 as HOSTILE_MODE says:

  garbage   answers every request with a line that is not JSON
  flood     sends 6 MiB without a newline, then waits
  wrong-id  answers with ids nobody asked for
  hang      reads requests and never answers
It ends when the kiosk closes its end.
  exit      exits at once with status 3
  bad-path  answers a poem picture request with /etc/passwd as the cached file
  huge      answers a poem with 300,000 characters and a sync with campaigns: -5 and a
            warning of 100,000 characters
"""
import json
import os
import socket
import sys

mode = os.environ.get("HOSTILE_MODE", "garbage")
if mode == "exit":
    sys.exit(3)
sock = socket.socket(fileno=3)
reader = sock.makefile("rb")
if mode == "flood":
    try:
        sock.sendall(b"x" * (6 << 20))
    except OSError:
        pass
for line in reader:
    try:
        request = json.loads(line)
    except ValueError:
        continue
    if mode == "garbage":
        sock.sendall(b"\x00\xff not json at all {\n")
    elif mode == "wrong-id":
        sock.sendall(json.dumps({"id": request["id"] + 1000, "error": "not yours"}).encode() + b"\n")
    elif mode == "hang":
        continue
    elif mode == "huge":
        answer = {"id": request["id"]}
        if request["kind"] == "poem":
            answer["poem"] = {"content": "床前明月光，" * 50000, "origin": "长" * 300000}
        else:
            answer["report"] = {"status": "ok", "campaigns": -5, "warnings": ["w" * 100000], "pictureErrors": []}
        sock.sendall(json.dumps(answer).encode() + b"\n")
    elif mode == "bad-path":
        answer = {"id": request["id"]}
        if request["kind"] == "poem":
            answer["poem"] = {"content": "床前明月光", "origin": "静夜思"}
        elif request["kind"] == "poem_picture":
            answer["path"] = "/etc/passwd"
        else:
            answer["report"] = {"status": "not_modified", "campaigns": 1, "warnings": [], "pictureErrors": []}
        sock.sendall(json.dumps(answer).encode() + b"\n")
# The kiosk has closed its end (or ended): so does this.
while reader.read(4096):
    pass

#!/usr/bin/env python3
"""An OTLP/HTTP logs receiver on 127.0.0.1 for the tests: every POST to /v1/logs is parsed
with the official schema (opentelemetry-proto's ExportLogsServiceRequest, through
protobuf's json_format), and its log records are kept. Prints its port on the first line.

  POST /v1/logs     the records; 200, or 503 while down, 400 if the body does not parse
  GET  /down        answer 503 to POSTs from now on;  GET /up  accept them again
  GET  /records     JSON: {"posts", "refused", "invalid", "records": [{"show.id", ...,
                    "timeUnixNano", "resource": {...}}]}

Needs opentelemetry-proto (PYTHONPATH may point at a folder it was installed into)."""
import http.server
import json
import sys
import threading

from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2

STATE = {"down": False, "posts": 0, "refused": 0, "cut": 0, "invalid": [], "records": []}
LOCK = threading.Lock()


def value(any_value):
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, code, body=b"{}"):
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path in ("/down", "/up"):
            with LOCK:
                STATE["down"] = self.path == "/down"
            return self.answer(200)
        if self.path == "/records":
            with LOCK:
                body = json.dumps({k: STATE[k] for k in ("posts", "refused", "invalid", "records")})
            return self.answer(200, body.encode())
        self.answer(404)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(length)
        if len(body) < length:
            # The sender stopped half way (a kill during the post): nothing to parse, as a
            # collector would drop it; the show is sent again, whole, later.
            with LOCK:
                STATE["cut"] += 1
            return
        with LOCK:
            if STATE["down"]:
                STATE["refused"] += 1
                return self.answer(503)
        if self.path != "/v1/logs" or self.headers.get("Content-Type") != "application/json":
            with LOCK:
                STATE["invalid"].append("%s %s" % (self.path, self.headers.get("Content-Type")))
            return self.answer(400)
        try:
            request = json_format.Parse(body, logs_service_pb2.ExportLogsServiceRequest())
        except json_format.ParseError as error:
            with LOCK:
                STATE["invalid"].append(str(error))
            return self.answer(400)
        records = []
        for resource_logs in request.resource_logs:
            resource = {a.key: value(a.value) for a in resource_logs.resource.attributes}
            for scope_logs in resource_logs.scope_logs:
                for record in scope_logs.log_records:
                    entry = {a.key: value(a.value) for a in record.attributes}
                    entry["timeUnixNano"] = record.time_unix_nano
                    entry["resource"] = resource
                    entry["scope"] = scope_logs.scope.name
                    records.append(entry)
        with LOCK:
            STATE["posts"] += 1
            STATE["records"].extend(records)
        self.answer(200)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()

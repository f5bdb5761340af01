"""A minimal MCP client over a subprocess's stdio, for scripts (no
dependencies): start rigor-mcp, initialize, call tools, read answers."""
import json
import os
import shutil
import subprocess
import threading
import queue
import time


class Gateway:
    def __init__(self, argv, cwd, env=None):
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1)
        self.messages = queue.Queue()
        self.stderr_lines = []
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self.next_id = 0

    def _read_stdout(self):
        for line in self.process.stdout:
            self.messages.put(json.loads(line))
        self.messages.put(None)

    def _read_stderr(self):
        for line in self.process.stderr:
            self.stderr_lines.append(line.rstrip("\n"))

    def send(self, message):
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def request(self, method, params, timeout=60):
        self.next_id += 1
        request_id = self.next_id
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no answer to %s within %s s; gateway log:\n%s" % (method, timeout, "\n".join(self.stderr_lines[-30:])))
            try:
                message = self.messages.get(timeout=remaining)
            except queue.Empty:
                continue
            if message is None:
                raise RuntimeError("the gateway exited; log:\n" + "\n".join(self.stderr_lines[-30:]))
            if message.get("id") == request_id:
                if "error" in message:
                    raise RuntimeError("%s failed: %s" % (method, message["error"]))
                return message["result"]

    def initialize(self):
        result = self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                             "clientInfo": {"name": "rigor-scripts", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return result

    def call(self, tool, arguments, timeout=60):
        return self.request("tools/call", {"name": tool, "arguments": arguments}, timeout=timeout)

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()


def text_of(result):
    return "\n".join(block.get("text", "") for block in result.get("content", []))


def copy_repository(source, destination):
    """Mirrors the tracked (and untracked, not ignored) files of a checkout:
    changed files are copied, files gone from the source are removed, and
    unchanged ones keep their times so cargo's incremental build holds."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=source,
                           check=True, capture_output=True).stdout.decode().split("\0")
    wanted = set()
    for relative in filter(None, files):
        origin = os.path.join(source, relative)
        if not os.path.isfile(origin):
            continue
        wanted.add(relative)
        target = os.path.join(destination, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target) or open(origin, "rb").read() != open(target, "rb").read():
            shutil.copy2(origin, target)
    for directory, _, names in os.walk(destination):
        for name in names:
            path = os.path.join(directory, name)
            if os.path.relpath(path, destination) not in wanted:
                os.remove(path)



def replace_in(path, old, new):
    text = open(path).read()
    if old not in text:
        raise ValueError("%r not found in %s" % (old, path))
    # Save by rename, as editors do.
    temporary = path + ".tmp-save"
    with open(temporary, "w") as handle:
        handle.write(text.replace(old, new, 1))
    os.replace(temporary, path)

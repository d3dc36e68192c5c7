#!/usr/bin/env python3
"""One cold start for bench/startup.sh: launches `<launcher> serve` pinned to CPU 0, polls from this process
(no process per poll, so the first answer is seen within ~2 ms of being given), and prints one line:
    <ms to /health 200> <ms to /api/v1/models 200> <CPU ms of the process at the first /health> <RSS KiB at 3 s> <java command line>
then stops the gateway (SIGTERM, SIGKILL after 25 s). Exits 1, with the gateway's output, if it does not come up.
Usage: startup.py LAUNCHER PORT MASTER_KEY DATABASE_URL AOT(on|off) LOG_FILE
"""
import os
import signal
import socket
import subprocess
import sys
import time

launcher, port, key, database_url, aot, log_file = sys.argv[1:7]
port = int(port)
HZ = os.sysconf("SC_CLK_TCK")
DEADLINE_S = 120


def status(path, headers=""):
    """The HTTP status of GET path, or None when nothing listens yet."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{headers}\r\n".encode())
            data = b""
            while b"\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    return None
                data += chunk
            return int(data.split(b" ", 2)[1])
    except (ConnectionRefusedError, ConnectionResetError, socket.timeout):
        return None


def fail(message, log):
    log.flush()
    sys.stderr.write(f"error: {message}\n")
    with open(log_file, errors="replace") as f:
        sys.stderr.write("".join(f.readlines()[-20:]))
    sys.exit(1)


env = dict(os.environ, GW_AOT=aot, GATEWAY_HOST="127.0.0.1", GATEWAY_PORT=str(port), GATEWAY_MASTER_KEY=key,
           GATEWAY_DATABASE_URL=database_url)
with open(log_file, "w") as log:
    # another server on the port (a gateway not yet gone, another benchmark) would answer in our place
    for _ in range(50):
        if status("/health") is None:
            break
        time.sleep(0.1)
    else:
        fail(f"something already answers on port {port}", log)
    t0 = time.monotonic()
    gw = subprocess.Popen(["taskset", "-c", "0", launcher, "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        def wait_for(path, headers=""):
            while status(path, headers) != 200:
                if gw.poll() is not None:
                    fail(f"the gateway exited ({gw.returncode}) before {path} answered 200", log)
                if time.monotonic() - t0 > DEADLINE_S:
                    fail(f"{path} did not answer 200 within {DEADLINE_S} s", log)
                time.sleep(0.002)
            return round((time.monotonic() - t0) * 1000)

        health = wait_for("/health")
        with open(f"/proc/{gw.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        cpu = round((int(fields[11]) + int(fields[12])) * 1000 / HZ)  # utime, stime
        models = wait_for("/api/v1/models", f"Authorization: Bearer {key}\r\n")
        with open(f"/proc/{gw.pid}/cmdline") as f:
            cmdline = f.read().replace("\0", " ").strip()
        time.sleep(max(0.0, t0 + 3 - time.monotonic()))
        with open(f"/proc/{gw.pid}/status") as f:
            rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        print(health, models, cpu, rss, cmdline)
    finally:
        if gw.poll() is None:
            gw.send_signal(signal.SIGTERM)
            try:
                gw.wait(timeout=25)
            except subprocess.TimeoutExpired:
                gw.kill()
                gw.wait()

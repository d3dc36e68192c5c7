#!/usr/bin/env python3
"""Mixed abusive load against a gateway on loopback, bounded in time (docs/security.md).

While slowloris connections, anonymous oversized bodies, media fan-out requests and a key at its budget hammer
the gateway, a well-behaved caller measures /health and a small chat call. Prints latency figures for a quiet
baseline and for the storm. Standard library only; talks to 127.0.0.1 only.

Usage: bench/abuse.py --port 18090 --sim-url http://127.0.0.1:PORT --key pk-demo-model-gateway [--seconds 20]
(bench/abuse.sh starts ./gw demo and runs this against it.)
"""
import argparse
import json
import socket
import statistics
import threading
import time
import urllib.error
import urllib.request

HOST = "127.0.0.1"
# The abusers connect from other loopback addresses than the well-behaved caller, as on a real network: the
# gateway caps connections per client address, so abusers sharing the caller's address would lock it out too.
SLOWLORIS_FROM = "127.0.0.2"
OVERSIZED_FROM = "127.0.0.3"


def call(port, path, body=None, key=None, timeout=30):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://{HOST}:{port}{path}", data=data, method="POST" if data else "GET")
    req.add_header("content-type", "application/json")
    if key:
        req.add_header("authorization", "Bearer " + key)
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            r.read()
            status = r.status
    except urllib.error.HTTPError as e:
        status = e.code
    except Exception:
        status = 0
    return status, (time.perf_counter() - start) * 1000


def measure(port, key, seconds):
    """A well-behaved caller: alternately /health and a small chat call, one at a time."""
    health, chat, failures = [], [], 0
    end = time.time() + seconds
    small = {"model": "platform/vendorB-5.5", "messages": [{"role": "user", "content": "hi"}]}
    while time.time() < end:
        s, ms = call(port, "/health")
        health.append(ms)
        failures += s != 200
        s, ms = call(port, "/api/v1/chat/completions", small, key)
        chat.append(ms)
        failures += s != 200
    return health, chat, failures


def slowloris(port, stop, count, opened):
    socks = []
    for _ in range(count):
        if stop.is_set():
            break
        try:
            s = socket.create_connection((HOST, port), timeout=2, source_address=(SLOWLORIS_FROM, 0))
            s.sendall(b"POST /api/v1/chat/completions HTTP/1.1\r\nHost: x\r\n")
            socks.append(s)
            opened[0] += 1
        except OSError:
            pass
    while not stop.is_set():
        for s in list(socks):
            try:
                s.sendall(b"X-a: b\r\n")
            except OSError:
                socks.remove(s)
        stop.wait(5)
    for s in socks:
        s.close()


def oversized(port, stop, sent):
    chunk = b"x" * (1024 * 1024)
    while not stop.is_set():
        try:
            s = socket.create_connection((HOST, port), timeout=5, source_address=(OVERSIZED_FROM, 0))
            s.sendall(b"POST /api/v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 31457280\r\n\r\n")
            for _ in range(30):
                if stop.is_set():
                    break
                s.sendall(chunk)
            s.settimeout(5)
            s.recv(256)
            s.close()
            sent[0] += 1
        except OSError:
            sent[1] += 1


def fan_out(port, key, sim_url, stop, done):
    urls = [{"type": "image_url", "image_url": {"url": f"{sim_url}/_sim/files/sim.png?{i}"}} for i in range(200)]
    body = {"model": "vendorC-flash-3", "max_tokens": 16,
            "messages": [{"role": "user", "content": [{"type": "text", "text": "look"}] + urls}]}
    while not stop.is_set():
        s, _ = call(port, "/api/v1/chat/completions", body, key)
        done[s] = done.get(s, 0) + 1


def spent_key(port, key, stop, done):
    while not stop.is_set():
        s, _ = call(port, "/api/v1/chat/completions",
                    {"model": "platform/vendorB-5.5", "messages": [{"role": "user", "content": "hi"}]}, key)
        done[s] = done.get(s, 0) + 1


def summary(name, values):
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    return f"| {name} | {len(values)} | {statistics.median(values):.1f} | {p99:.1f} | {values[-1]:.1f} |"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--sim-url", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--slowloris", type=int, default=2000)
    ap.add_argument("--oversized", type=int, default=16)
    a = ap.parse_args()

    req = urllib.request.Request(f"http://{HOST}:{a.port}/api/v1/admin/keys", method="POST",
                                 data=json.dumps({"name": "at-budget", "budget_usd": "0"}).encode())
    req.add_header("authorization", "Bearer " + a.key)
    req.add_header("content-type", "application/json")
    with urllib.request.urlopen(req, timeout=10) as r:
        at_budget = json.loads(r.read())["key"]

    base_health, base_chat, base_fail = measure(a.port, a.key, 5)

    stop = threading.Event()
    opened, sent, fan, spent = [0], [0, 0], {}, {}
    threads = [threading.Thread(target=slowloris, args=(a.port, stop, a.slowloris, opened), daemon=True)]
    threads += [threading.Thread(target=oversized, args=(a.port, stop, sent), daemon=True) for _ in range(a.oversized)]
    threads += [threading.Thread(target=fan_out, args=(a.port, a.key, a.sim_url, stop, fan), daemon=True) for _ in range(4)]
    threads += [threading.Thread(target=spent_key, args=(a.port, at_budget, stop, spent), daemon=True) for _ in range(4)]
    for t in threads:
        t.start()
    time.sleep(2)
    storm_health, storm_chat, storm_fail = measure(a.port, a.key, a.seconds)
    stop.set()
    for t in threads:
        t.join(timeout=10)

    print("| phase / call | n | p50 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    print(summary("quiet: /health", base_health))
    print(summary("quiet: chat", base_chat))
    print(summary("storm: /health", storm_health))
    print(summary("storm: chat", storm_chat))
    print()
    print(f"well-behaved failures: quiet {base_fail}, storm {storm_fail}")
    print(f"slowloris connections opened (from {SLOWLORIS_FROM}): {opened[0]}; oversized anonymous bodies answered: {sent[0]}, "
          f"refused/cut: {sent[1]}; fan-out answers by status: {fan}; at-budget key answers by status: {spent}")


if __name__ == "__main__":
    main()

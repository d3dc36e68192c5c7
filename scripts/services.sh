#!/usr/bin/env bash
# Makes sure the services the tests use are up: PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379.
# Starts them the way this machine kind installs them; installs them from Debian packages if missing.
set -euo pipefail

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if ! port_open 5432; then
  if ! ls /etc/postgresql >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
if ! port_open 6379; then
  if ! command -v redis-server >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
for i in $(seq 1 30); do
  if port_open 5432 && port_open 6379; then exit 0; fi
  sleep 1
done
echo "error: PostgreSQL or Redis did not come up" >&2
exit 1

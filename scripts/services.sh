#!/usr/bin/env bash
# Makes sure the services the tests use are up: PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379, and that
# redis-server and redis-cli (for the Redis failover tests' own nodes), Prometheus and HAProxy are installed (the
# metrics and load balancer tests run their own on loopback).
# Starts them the way this machine kind installs them; installs them from Debian packages if missing.
# Then makes sure PostgreSQL has the tests' own role and database (idempotent, safe to run again):
#   role gateway_test (password gateway_test), database gateway_test owned by it, so that the tests can create
#   and drop a schema of their own; they connect with
#   jdbc:postgresql://127.0.0.1:5432/gateway_test?user=gateway_test&password=gateway_test
# Creating them needs the postgres superuser; it is reached as the postgres OS user over the local socket
# (peer authentication on a stock Debian install), so this part runs as root or as postgres.
set -euo pipefail

TEST_ROLE=gateway_test
TEST_PASSWORD=gateway_test
TEST_DB=gateway_test

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if ! port_open 5432; then
  if ! ls /etc/postgresql >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
# redis-server and redis-cli even when a Redis already listens: the failover tests (e2e/stores) start a Cluster and a
# Sentinel set of their own (redis-server --sentinel; redis-cli --cluster create), from Debian's redis-server and redis-tools.
if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server redis-tools >/dev/null
fi
if ! port_open 6379; then
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
# Prometheus: the metrics test (PrometheusMetricsTest) starts its own server on loopback, scraping the gateway it
# starts; only the binary is needed here (Debian's package also enables a service, which this machine kind does not run).
if ! command -v prometheus >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null \
    || echo "warning: could not install prometheus; the metrics test will be skipped" >&2
fi
# HAProxy: the load balancer test (LoadBalancerTest) runs deploy/haproxy/haproxy.cfg with it on loopback ports of its
# own; only the binary is used (a service the package may start listens on no port of its default configuration).
if ! command -v haproxy >/dev/null && [ ! -x /usr/sbin/haproxy ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends haproxy >/dev/null
fi
up=""
for i in $(seq 1 30); do
  if port_open 5432 && port_open 6379; then up=1; break; fi
  sleep 1
done
if [ -z "$up" ]; then
  echo "error: PostgreSQL or Redis did not come up" >&2
  exit 1
fi

# psql as the postgres superuser, over the local socket of the cluster on port 5432 (from / so that psql does not
# complain about a working directory the postgres user cannot read).
as_postgres() {
  if [ "$(id -un)" = postgres ]; then (cd / && "$@")
  elif [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@")
  else echo "error: creating the test role needs root or the postgres user" >&2; return 1
  fi
}
pg() { as_postgres psql -X -q -v ON_ERROR_STOP=1 -p 5432 -d postgres "$@"; }
as_test_role() { # sql: its one value, or nothing when the role cannot log in
  PGPASSWORD="$TEST_PASSWORD" psql -X -h 127.0.0.1 -p 5432 -U "$TEST_ROLE" -d "$TEST_DB" -tAc "$1" 2>/dev/null || true
}
db_owner="SELECT pg_catalog.pg_get_userbyid(datdba) FROM pg_catalog.pg_database WHERE datname = current_database()"

# Only when the role cannot log in or does not own the database is the superuser needed.
if [ "$(as_test_role "$db_owner")" != "$TEST_ROLE" ]; then
  for i in $(seq 1 30); do # a cluster that has just started takes connections a moment after its port opens
    [ "$(pg -tAc 'SELECT 1' 2>/dev/null || true)" = 1 ] && break
    sleep 1
  done
  if [ "$(pg -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$TEST_ROLE'")" = 1 ]; then
    pg -c "ALTER ROLE $TEST_ROLE LOGIN PASSWORD '$TEST_PASSWORD'"
  else
    pg -c "CREATE ROLE $TEST_ROLE LOGIN PASSWORD '$TEST_PASSWORD'"
  fi
  if [ "$(pg -tAc "SELECT 1 FROM pg_database WHERE datname = '$TEST_DB'")" = 1 ]; then
    pg -c "ALTER DATABASE $TEST_DB OWNER TO $TEST_ROLE"
  else
    pg -c "CREATE DATABASE $TEST_DB OWNER $TEST_ROLE"
  fi
  if [ "$(as_test_role "$db_owner")" != "$TEST_ROLE" ]; then
    echo "error: cannot log in to PostgreSQL on 127.0.0.1:5432 as $TEST_ROLE (database $TEST_DB); check pg_hba.conf" >&2
    exit 1
  fi
  echo "PostgreSQL: role and database $TEST_DB ready" >&2
fi

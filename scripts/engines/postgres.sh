#!/bin/bash
# Starts or stops a throwaway PostgreSQL cluster for the test suites: trust auth, UTF-8 with the
# C.UTF-8 locale, listening on 127.0.0.1 only, on a free port, data under $BQ_PG_DIR (default
# /tmp/bq-postgres), fsync off. `start` prints the connection URL on stdout and logs to stderr.
#
#   scripts/engines/postgres.sh start   # -> postgres://postgres@127.0.0.1:PORT/app
#   scripts/engines/postgres.sh stop
set -euo pipefail

BASE=${BQ_PG_DIR:-/tmp/bq-postgres}
HERE=$(cd "$(dirname "$0")" && pwd)
log() { echo "[engines/postgres] $*" >&2; }

PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
[ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] || { log "no /usr/lib/postgresql/*/bin/initdb: run scripts/engines/install.sh"; exit 1; }

# initdb and postgres refuse to run as root; when we are root, act as the postgres user.
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

start() {
  local port=${BQ_PG_PORT:-$("$HERE/free-port.sh")}
  log "cluster in $BASE, port $port ($PGBIN)"
  [ -f "$BASE/data/postmaster.pid" ] && stop
  rm -rf "$BASE"
  mkdir -p "$BASE/data" "$BASE/sock"
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres:postgres "$BASE"; fi
  cd /tmp # the postgres user may not be able to read the caller's working directory
  log "initdb"
  as_pg "$PGBIN/initdb" -D "$BASE/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync \
    >"$BASE/initdb.log" 2>&1 || { tail -n 30 "$BASE/initdb.log" >&2; exit 1; }
  log "pg_ctl start"
  as_pg "$PGBIN/pg_ctl" -D "$BASE/data" -l "$BASE/server.log" -w -t 60 \
    -o "-p $port -k $BASE/sock -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >&2 || { tail -n 30 "$BASE/server.log" >&2; exit 1; }
  as_pg "$PGBIN/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "create database app" >&2
  echo "$port" >"$BASE/port"
  log "ready"
  echo "postgres://postgres@127.0.0.1:$port/app"
}

stop() {
  if [ -f "$BASE/data/postmaster.pid" ]; then
    cd /tmp
    log "pg_ctl stop ($BASE)"
    as_pg "$PGBIN/pg_ctl" -D "$BASE/data" -m fast -w -t 60 stop >&2 || true
  else
    log "not running ($BASE)"
  fi
  rm -rf "$BASE"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop   (env: BQ_PG_DIR, BQ_PG_PORT)" >&2; exit 2 ;;
esac

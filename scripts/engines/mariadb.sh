#!/bin/bash
# Starts or stops a throwaway MariaDB (or MySQL) server for the test suites: a fresh datadir under
# $BQ_MYSQL_DIR (default /tmp/bq-mariadb), TCP on 127.0.0.1 only on a free port, utf8mb4, no
# config files read (--no-defaults), and a user `bq` without password allowed from 127.0.0.1.
# `start` prints the connection URL on stdout and logs to stderr.
#
#   scripts/engines/mariadb.sh start   # -> mysql://bq@127.0.0.1:PORT/app
#   scripts/engines/mariadb.sh stop
set -euo pipefail

BASE=${BQ_MYSQL_DIR:-/tmp/bq-mariadb}
HERE=$(cd "$(dirname "$0")" && pwd)
log() { echo "[engines/mariadb] $*" >&2; }

find_bin() { for b in "$@"; do if command -v "$b" >/dev/null; then command -v "$b"; return; elif [ -x "/usr/sbin/$b" ]; then echo "/usr/sbin/$b"; return; fi; done; }
SERVER=$(find_bin mariadbd mysqld)
INSTALL_DB=$(find_bin mariadb-install-db mysql_install_db)
CLIENT=$(find_bin mariadb mysql)
ADMIN=$(find_bin mariadb-admin mysqladmin)
[ -n "$SERVER" ] && [ -n "$INSTALL_DB" ] || { log "no mariadbd / mariadb-install-db: run scripts/engines/install.sh"; exit 1; }

# mariadbd refuses to run as root unless told to; run it as the mysql user when we are root.
USER_OPT=()
if [ "$(id -u)" -eq 0 ]; then USER_OPT=(--user=mysql); fi

start() {
  local port=${BQ_MYSQL_PORT:-$("$HERE/free-port.sh")}
  log "server in $BASE, port $port ($SERVER)"
  [ -f "$BASE/mariadb.pid" ] && stop
  rm -rf "$BASE"
  mkdir -p "$BASE/data" "$BASE/tmp"
  if [ "$(id -u)" -eq 0 ]; then chown -R mysql:mysql "$BASE"; fi
  cd /tmp
  log "mariadb-install-db"
  "$INSTALL_DB" --no-defaults "${USER_OPT[@]}" --datadir="$BASE/data" --auth-root-authentication-method=socket \
    --skip-test-db >"$BASE/install.log" 2>&1 || { tail -n 30 "$BASE/install.log" >&2; exit 1; }
  log "mariadbd"
  "$SERVER" --no-defaults "${USER_OPT[@]}" --datadir="$BASE/data" --tmpdir="$BASE/tmp" \
    --socket="$BASE/mariadb.sock" --pid-file="$BASE/mariadb.pid" --log-error="$BASE/server.log" \
    --skip-networking=0 --bind-address=127.0.0.1 --port="$port" --skip-name-resolve \
    --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci \
    --innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0 --innodb-fast-shutdown=2 --skip-log-bin \
    >"$BASE/stdout.log" 2>&1 &
  local pid=$!
  for _ in $(seq 300); do
    if "$ADMIN" --no-defaults --socket="$BASE/mariadb.sock" -uroot ping >/dev/null 2>&1; then break; fi
    if ! kill -0 "$pid" 2>/dev/null; then log "mariadbd exited"; tail -n 30 "$BASE/server.log" >&2; exit 1; fi
    sleep 0.1
  done
  "$ADMIN" --no-defaults --socket="$BASE/mariadb.sock" -uroot ping >/dev/null 2>&1 ||
    { log "mariadbd did not answer within 30 s"; tail -n 30 "$BASE/server.log" >&2; exit 1; }
  "$CLIENT" --no-defaults --socket="$BASE/mariadb.sock" -uroot -e \
    "CREATE DATABASE app CHARACTER SET utf8mb4; CREATE USER 'bq'@'127.0.0.1'; GRANT ALL ON *.* TO 'bq'@'127.0.0.1';"
  echo "$port" >"$BASE/port"
  log "ready (pid $pid)"
  echo "mysql://bq@127.0.0.1:$port/app"
}

stop() {
  if [ -f "$BASE/mariadb.pid" ]; then
    local pid
    pid=$(cat "$BASE/mariadb.pid")
    log "stopping mariadbd (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then log "mariadbd $pid still running after 30 s, killing"; kill -KILL "$pid" || true; fi
  else
    log "not running ($BASE)"
  fi
  rm -rf "$BASE"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop   (env: BQ_MYSQL_DIR, BQ_MYSQL_PORT)" >&2; exit 2 ;;
esac

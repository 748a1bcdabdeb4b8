#!/bin/bash
# Installs the database servers the differential and injection suites run against (PostgreSQL,
# MariaDB and ClickHouse, from Debian's packages), only when they are missing. Idempotent; needs
# root on a fresh machine and prints every step it takes. Nothing is started here: see
# postgres.sh, mariadb.sh and clickhouse.sh.
set -euo pipefail

log() { echo "[engines/install] $*" >&2; }

have_postgres() { compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; }
have_mariadb() {
  { command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || [ -x /usr/sbin/mysqld ]; } &&
    { command -v mariadb-install-db >/dev/null || command -v mysql_install_db >/dev/null; }
}
have_clickhouse() {
  { command -v clickhouse-server >/dev/null || [ -x /usr/sbin/clickhouse-server ]; } && command -v clickhouse-client >/dev/null &&
    [ -f /etc/clickhouse-server/config.xml ] && [ -f /etc/clickhouse-server/users.xml ] && id clickhouse >/dev/null 2>&1
}

packages=()
if have_postgres; then log "PostgreSQL found: $(ls -d /usr/lib/postgresql/*/bin/initdb | head -n1)"; else packages+=(postgresql); fi
if have_mariadb; then log "MariaDB found: $(command -v mariadbd || echo /usr/sbin/mysqld)"; else packages+=(mariadb-server); fi
if have_clickhouse; then log "ClickHouse found: $(command -v clickhouse-server || echo /usr/sbin/clickhouse-server)"; else packages+=(clickhouse-server clickhouse-client); fi

if [ ${#packages[@]} -eq 0 ]; then
  log "nothing to install"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  log "missing ${packages[*]} and not root: install them with apt-get (or set BQ_POSTGRES_URL / BQ_MYSQL_URL / BQ_CLICKHOUSE_URL)"
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# Package post-install scripts must not try to start services (there is no init system in CI, and
# the suites start their own throwaway servers); policy-rc.d exit 101 tells invoke-rc.d "not now".
created_policy=0
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  created_policy=1
fi
cleanup() { if [ "$created_policy" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi; }
trap cleanup EXIT

log "apt-get update"
apt-get update -q -o DPkg::Lock::Timeout=300 >&2
log "apt-get install -y --no-install-recommends ${packages[*]}"
apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
  "${packages[@]}" >&2

have_postgres || { log "PostgreSQL still missing after install"; exit 1; }
have_mariadb || { log "MariaDB still missing after install"; exit 1; }
have_clickhouse || { log "ClickHouse still missing after install"; exit 1; }
log "installed ${packages[*]}"

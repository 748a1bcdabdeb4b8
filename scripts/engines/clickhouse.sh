#!/bin/bash
# Starts or stops a throwaway ClickHouse server for the test suites (Debian's clickhouse-server,
# 18.16 on bookworm): a config generated from /etc/clickhouse-server/config.xml and users.xml with
# every path under $BQ_CLICKHOUSE_DIR (default /tmp/bq-clickhouse), HTTP, native TCP and
# interserver ports all free ones, listening on 127.0.0.1 only, run as the clickhouse user when we
# are root; the default profile has `log_queries` on, so `system.query_log` records every query
# (rows and bytes read, by query_id). `start` waits for /ping, prints the HTTP URL on stdout and
# logs to stderr; `stop` returns once the server process is gone.
#
#   scripts/engines/clickhouse.sh start           # -> http://127.0.0.1:PORT
#   scripts/engines/clickhouse.sh stop
#   scripts/engines/clickhouse.sh cluster-start   # -> http://127.0.0.1:P1,http://127.0.0.1:P2
#   BQ_CLICKHOUSE_SHARDS=4 scripts/engines/clickhouse.sh cluster-start   # -> four URLs
#   scripts/engines/clickhouse.sh cluster-stop
#
# `cluster-start` runs a cluster of N shards on loopback, N = $BQ_CLICKHOUSE_SHARDS (default 2, what
# the test suites use): N servers, in $BQ_CLICKHOUSE_DIR/shard1/ .. shardN/, each on its own free
# HTTP, TCP and interserver ports, and every config holds the same <remote_servers> cluster
# `bq_cluster`: shard K = shardK's TCP port, one replica each, weight 1 each (so a Distributed
# table's sharding key k puts a row on shard (k % N) + 1). It waits until every server answers
# /ping and lists the N shards in system.clusters, then prints ONE line: the N HTTP URLs, shard 1
# first, separated by commas. There is no ZooKeeper, so no `ON CLUSTER` DDL: create the local
# tables on each URL, the Distributed table on the one you query. If any server fails to start,
# all are stopped. `cluster-stop` (the same as `stop`) stops them all and waits for their pids.
#
# With BQ_CLICKHOUSE_KEEP=1 the folder's data outlives the servers: `cluster-start` on a folder
# that already holds a cluster of N shards stops whatever still runs there and starts every shard
# again on its kept data (new free ports, configs written again; a folder holding another number
# of shards is refused), and `stop`/`cluster-stop` leave the folder in place. Without it (the
# default, what the test suites use) both wipe the folder.
#
# `shard-stop K` stops shard K of the running cluster alone (the others keep running, its folder
# stays); `shard-start K` starts it again on its kept data, ports and config, and waits until it
# answers /ping and lists the cluster's shards: for tests of a shard that goes down and comes back.
#
#   scripts/engines/clickhouse.sh shard-stop 2
#   scripts/engines/clickhouse.sh shard-start 2
#
# One server lives in one folder (config.xml, users.xml, ch.pid, data/, log/ ...); the pieces
# below take that folder and its ports as arguments; `stop` stops every server under
# $BQ_CLICKHOUSE_DIR (the single one, or each shard's).
set -euo pipefail

BASE=${BQ_CLICKHOUSE_DIR:-/tmp/bq-clickhouse}
KEEP=${BQ_CLICKHOUSE_KEEP:-0}
SHARDS=${BQ_CLICKHOUSE_SHARDS:-2}
[[ "$SHARDS" =~ ^[1-9][0-9]*$ ]] || { echo "[engines/clickhouse] BQ_CLICKHOUSE_SHARDS takes a positive integer, got '$SHARDS'" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
log() { echo "[engines/clickhouse] $*" >&2; }

SERVER=$(command -v clickhouse-server || { [ -x /usr/sbin/clickhouse-server ] && echo /usr/sbin/clickhouse-server; } || true)
ETC=/etc/clickhouse-server
[ -n "$SERVER" ] && [ -f "$ETC/config.xml" ] && [ -f "$ETC/users.xml" ] ||
  { log "no clickhouse-server or $ETC/{config,users}.xml: run scripts/engines/install.sh"; exit 1; }

# clickhouse-server will not run as root against files it does not own; act as the clickhouse user.
as_ch() { if [ "$(id -u)" -eq 0 ]; then runuser -u clickhouse -- "$@"; else "$@"; fi; }

# configure DIR HTTP TCP INTERSERVER [REMOTE_SERVERS_XML]: writes DIR/config.xml and DIR/users.xml.
# REMOTE_SERVERS_XML, when given, goes right after the opening <remote_servers> tag (clusters).
configure() {
  local dir=$1 http=$2 tcp=$3 inter=$4 remote=${5:-}
  mkdir -p "$dir"/{data,tmp,user_files,format_schemas,log}
  sed -e "s#<http_port>8123</http_port>#<http_port>$http</http_port>#" \
    -e "s#<tcp_port>9000</tcp_port>#<tcp_port>$tcp</tcp_port>#" \
    -e "s#<interserver_http_port>9009</interserver_http_port>#<interserver_http_port>$inter</interserver_http_port>#" \
    -e "s#<path>/var/lib/clickhouse/</path>#<path>$dir/data/</path>#" \
    -e "s#/var/lib/clickhouse/tmp/#$dir/tmp/#; s#/var/lib/clickhouse/user_files/#$dir/user_files/#" \
    -e "s#/var/lib/clickhouse/format_schemas/#$dir/format_schemas/#" \
    -e "s#/var/log/clickhouse-server/#$dir/log/#g" \
    -e "s#<level>[a-z]*</level>#<level>warning</level>#" \
    "$ETC/config.xml" >"$dir/config.xml.tmp"
  # Listen on 127.0.0.1 only (without a listen_host the server also takes ::1), and let other
  # servers of a cluster reach this one's interserver port there.
  sed -i -e "s#^\(\s*\)<http_port>$http</http_port>#&\n\1<listen_host>127.0.0.1</listen_host>\n\1<interserver_http_host>127.0.0.1</interserver_http_host>#" "$dir/config.xml.tmp"
  if [ -n "$remote" ]; then
    REMOTE="$remote" awk '{ print } /<remote_servers[ >]/ && !done { print ENVIRON["REMOTE"]; done = 1 }' "$dir/config.xml.tmp" >"$dir/config.xml.tmp2"
    mv "$dir/config.xml.tmp2" "$dir/config.xml.tmp"
  fi
  # A config the packaged file no longer matches would start a server on the default ports and
  # paths: check that every substitution took.
  local want
  for want in "<http_port>$http<" "<tcp_port>$tcp<" "<interserver_http_port>$inter<" "<path>$dir/data/<" \
    "<tmp_path>$dir/tmp/<" "<listen_host>127.0.0.1<"; do
    grep -q "$want" "$dir/config.xml.tmp" || { log "$ETC/config.xml changed shape: no $want in the generated config"; exit 1; }
  done
  if grep -v '^\s*<!--' "$dir/config.xml.tmp" | grep -q '/var/lib/clickhouse\|/var/log/clickhouse'; then
    log "the generated config still points into /var: $(grep -n '/var/lib/clickhouse\|/var/log/clickhouse' "$dir/config.xml.tmp" | head -n3)"
    exit 1
  fi
  mv "$dir/config.xml.tmp" "$dir/config.xml"
  # system.query_log on (Debian's default profile leaves log_queries off): every query's rows and
  # bytes read can be read afterwards, by its query_id (docs/scaling.md, "Rows read per call").
  awk '{ print } /<profiles>/ { p = 1 } p && /<default>/ && !done { print "            <log_queries>1</log_queries>"; done = 1 }' \
    "$ETC/users.xml" >"$dir/users.xml.tmp"
  grep -q '<log_queries>1</log_queries>' "$dir/users.xml.tmp" || { log "$ETC/users.xml changed shape: no default profile to turn log_queries on in"; exit 1; }
  mv "$dir/users.xml.tmp" "$dir/users.xml"
}

# launch DIR HTTP: starts the server configured in DIR and waits until /ping answers.
launch() {
  local dir=$1 http=$2
  if [ "$(id -u)" -eq 0 ]; then chown -R clickhouse:clickhouse "$dir"; fi
  (cd /tmp && as_ch "$SERVER" --config-file="$dir/config.xml" --pid-file="$dir/ch.pid" --daemon) \
    >"$dir/stdout.log" 2>&1 </dev/null || { log "clickhouse-server failed to start"; tail_logs "$dir"; exit 1; }
  for _ in $(seq 300); do
    if curl -sf --max-time 2 "http://127.0.0.1:$http/ping" >/dev/null 2>&1; then return 0; fi
    if [ -f "$dir/ch.pid" ] && ! kill -0 "$(cat "$dir/ch.pid")" 2>/dev/null; then log "clickhouse-server exited"; tail_logs "$dir"; exit 1; fi
    sleep 0.1
  done
  log "clickhouse-server did not answer /ping on port $http within 30 s"
  tail_logs "$dir"
  exit 1
}

tail_logs() {
  local file
  for file in "$1/stdout.log" "$1/log/clickhouse-server.err.log"; do
    [ -s "$file" ] && { log "--- $file"; tail -n 30 "$file" >&2; }
  done
  return 0
}

# halt DIR: SIGTERM to the server of DIR, and wait until its pid is gone (SIGKILL after 30 s).
halt() {
  local dir=$1 pid
  pid=$(cat "$dir/ch.pid" 2>/dev/null || true)
  if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then log "not running ($dir)"; return 0; fi
  log "stopping clickhouse-server (pid $pid, $dir)"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  log "clickhouse-server $pid still running after 30 s, killing"
  kill -KILL "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
}

start() {
  local ports http tcp inter
  [ -d "$BASE" ] && stop
  ports=$("$HERE/free-port.sh" 3)
  { read -r http; read -r tcp; read -r inter; } <<<"$ports"
  http=${BQ_CLICKHOUSE_PORT:-$http}
  log "server in $BASE, HTTP port $http, TCP $tcp, interserver $inter ($SERVER)"
  rm -rf "$BASE"
  configure "$BASE" "$http" "$tcp" "$inter"
  launch "$BASE" "$http"
  echo "$http" >"$BASE/port"
  log "ready (pid $(cat "$BASE/ch.pid"))"
  echo "http://127.0.0.1:$http"
}

stop() {
  local pidfile found=0
  # The servers (the single one, or each shard) stop side by side: each waits for its own pid.
  for pidfile in "$BASE/ch.pid" "$BASE"/*/ch.pid; do
    if [ -f "$pidfile" ]; then found=1; halt "$(dirname "$pidfile")" & fi
  done
  wait
  if [ "$found" = 0 ]; then log "not running ($BASE)"; fi
  if [ "$KEEP" = 1 ]; then log "keeping $BASE (BQ_CLICKHOUSE_KEEP=1)"; else rm -rf "$BASE"; fi
}

# query HTTP SQL: runs SQL over HTTP on 127.0.0.1:HTTP and prints the answer (empty on failure).
query() { curl -sf --max-time 5 "http://127.0.0.1:$1/" --data-binary "$2" 2>/dev/null || true; }

cluster_start() {
  local n=$SHARDS ports i url urls="" remote="" pids="" kept count _
  local -a port http tcp inter
  [ -d "$BASE" ] && stop
  ports=$("$HERE/free-port.sh" $((3 * n)))
  mapfile -t port <<<"$ports"
  for ((i = 1; i <= n; i++)); do
    http[i]=${port[3 * i - 3]} tcp[i]=${port[3 * i - 2]} inter[i]=${port[3 * i - 1]}
    remote+="    <shard><weight>1</weight><replica><host>127.0.0.1</host><port>${tcp[i]}</port></replica></shard>
"
  done
  remote="<bq_cluster>
$remote</bq_cluster>"
  log "cluster bq_cluster in $BASE, $n shards ($SERVER)"
  for ((i = 1; i <= n; i++)); do log "  shard$i: HTTP ${http[i]} TCP ${tcp[i]} interserver ${inter[i]}"; done
  if [ "$KEEP" = 1 ] && [ -d "$BASE/shard1/data" ]; then
    # Rows live on the shard their key picks among N: kept data of another shard count is not this cluster's.
    kept=$(find "$BASE" -mindepth 1 -maxdepth 1 -type d -name 'shard*' | wc -l)
    [ "$kept" = "$n" ] || { log "$BASE holds a cluster of $kept shards, not $n (BQ_CLICKHOUSE_SHARDS): stop it without BQ_CLICKHOUSE_KEEP=1 to wipe it, or use another folder"; exit 1; }
    log "starting on the data kept in $BASE (BQ_CLICKHOUSE_KEEP=1)"
  else
    rm -rf "$BASE"
  fi
  # Whatever fails from here on (a launch exits the script) stops the shards already running.
  trap 'log "cluster start failed, stopping what started"; stop' EXIT
  for ((i = 1; i <= n; i++)); do configure "$BASE/shard$i" "${http[i]}" "${tcp[i]}" "${inter[i]}" "$remote"; done
  for ((i = 1; i <= n; i++)); do launch "$BASE/shard$i" "${http[i]}"; echo "${http[i]}" >"$BASE/shard$i/port"; done
  for ((i = 1; i <= n; i++)); do
    for _ in $(seq 300); do
      count=$(query "${http[i]}" "SELECT count() FROM system.clusters WHERE cluster = 'bq_cluster'")
      [ "$count" = "$n" ] && break
      sleep 0.1
    done
    [ "$count" = "$n" ] || { log "shard$i lists ${count:-no} shards of bq_cluster in system.clusters, not $n"; tail_logs "$BASE/shard$i"; exit 1; }
    url="http://127.0.0.1:${http[i]}"
    urls+="${urls:+,}$url"
    pids+="${pids:+ }$(cat "$BASE/shard$i/ch.pid")"
  done
  trap - EXIT
  log "ready (pids $pids)"
  echo "$urls"
}

# shard_dir K: the folder of shard K of the running cluster (it must exist and have started once).
shard_dir() {
  local k=${1:-}
  [[ "$k" =~ ^[1-9][0-9]*$ ]] || { log "usage: $0 shard-stop|shard-start K (K = 1, 2, ...)"; exit 2; }
  [ -f "$BASE/shard$k/config.xml" ] && [ -f "$BASE/shard$k/port" ] || { log "no shard $k in $BASE (cluster-start first)"; exit 1; }
  echo "$BASE/shard$k"
}

# shard-stop K: stops shard K alone; its folder, data, ports and config stay for shard-start K.
shard_stop() {
  local dir
  dir=$(shard_dir "${1:-}")
  halt "$dir"
}

# shard-start K: starts shard K again on its kept data and ports, and waits until it answers /ping
# and lists the cluster's shards again (as many as the folder holds).
shard_start() {
  local dir http n count pid _
  dir=$(shard_dir "${1:-}")
  http=$(cat "$dir/port")
  pid=$(cat "$dir/ch.pid" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then log "shard ${1} already runs (pid $pid)"; return 0; fi
  # A pid file left by a server that was killed would stop the new one from starting.
  rm -f "$dir/ch.pid"
  launch "$dir" "$http"
  n=$(find "$BASE" -mindepth 1 -maxdepth 1 -type d -name 'shard*' | wc -l)
  for _ in $(seq 300); do
    count=$(query "$http" "SELECT count() FROM system.clusters WHERE cluster = 'bq_cluster'")
    [ "$count" = "$n" ] && break
    sleep 0.1
  done
  [ "$count" = "$n" ] || { log "shard ${1} lists ${count:-no} shards of bq_cluster in system.clusters, not $n"; tail_logs "$dir"; exit 1; }
  log "shard ${1} ready again (pid $(cat "$dir/ch.pid"), HTTP $http)"
}

case "${1:-}" in
  start) start ;;
  stop | cluster-stop) stop ;;
  cluster-start) cluster_start ;;
  shard-stop) shard_stop "${2:-}" ;;
  shard-start) shard_start "${2:-}" ;;
  *) echo "usage: $0 start|stop|cluster-start|cluster-stop|shard-stop K|shard-start K   (env: BQ_CLICKHOUSE_DIR, BQ_CLICKHOUSE_KEEP, BQ_CLICKHOUSE_PORT for start, BQ_CLICKHOUSE_SHARDS for cluster-start)" >&2; exit 2 ;;
esac

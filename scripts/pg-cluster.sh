#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on 127.0.0.1, for the tests and the bench of the PostgreSQL store.
#
#   scripts/pg-cluster.sh start [--fast]  prints DATABASE_URL=… and PG_CLUSTER_DIR=… (eval it)
#   scripts/pg-cluster.sh halt DIR        stops the server, keeps the data (an outage)
#   scripts/pg-cluster.sh resume DIR      starts it again on the same port
#   scripts/pg-cluster.sh stop DIR        stops the server and removes the cluster
#
# PostgreSQL's binaries are found through pg_config, then /usr/lib/postgresql/*/bin (Debian keeps
# them off PATH), else `apt-get install -y postgresql` installs them (as root). initdb refuses to
# run as root: as root the cluster belongs to the `postgres` user. --fast turns off fsync and
# synchronous commit: for tests, whose data nobody needs after a crash; the bench keeps them on.
set -euo pipefail

die() { echo "pg-cluster: $*" >&2; exit 1; }

bindir() {
  local dir
  for dir in "$(pg_config --bindir 2>/dev/null || true)" /usr/lib/postgresql/*/bin; do
    [[ -n $dir && -x $dir/initdb && -x $dir/pg_ctl ]] && { echo "$dir"; return; }
  done
  return 1
}

# Runs a PostgreSQL command as the cluster's owner.
as_owner() {
  if ((EUID == 0)); then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => {
    console.log(s.address().port); s.close(); });'
}

start() {
  local fast=0
  [[ ${1:-} == --fast ]] && fast=1
  local bin
  if ! bin=$(bindir); then
    ((EUID == 0)) || die 'PostgreSQL is not installed; as root this script installs it'
    echo 'pg-cluster: installing PostgreSQL (apt-get install -y postgresql)' >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >&2
    bin=$(bindir) || die 'PostgreSQL binaries not found after installing it'
  fi
  local dir port
  dir=$(mktemp -d /tmp/cashback-pg.XXXXXX)
  chmod 700 "$dir"
  ((EUID == 0)) && chown postgres: "$dir"
  port=$(free_port)
  echo "$bin" >"$dir/.bindir"
  echo "$port" >"$dir/.port"
  ((EUID == 0)) && chown postgres: "$dir/.bindir" "$dir/.port"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null ||
    as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale >/dev/null
  local opts="-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200"
  ((fast)) && opts+=' -c fsync=off -c synchronous_commit=off -c full_page_writes=off'
  echo "$opts" >"$dir/.options"
  ((EUID == 0)) && chown postgres: "$dir/.options"
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "$opts" -w start >/dev/null ||
    { cat "$dir/server.log" >&2; die 'the server did not start'; }
  echo "DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
  echo "PG_CLUSTER_DIR=$dir"
}

cluster() {
  local dir=${1:-}
  [[ -n $dir && -f $dir/.bindir ]] || die "not a cluster made by this script: '$dir'"
  echo "$dir"
}

halt() {
  local dir bin
  dir=$(cluster "${1:-}")
  bin=$(cat "$dir/.bindir")
  as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
}

resume() {
  local dir bin
  dir=$(cluster "${1:-}")
  bin=$(cat "$dir/.bindir")
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "$(cat "$dir/.options")" -w start >/dev/null
}

stop() {
  local dir bin
  dir=$(cluster "${1:-}")
  bin=$(cat "$dir/.bindir")
  as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

case ${1:-} in
  start) shift; start "$@" ;;
  halt) halt "${2:-}" ;;
  resume) resume "${2:-}" ;;
  stop) stop "${2:-}" ;;
  *) die 'usage: pg-cluster.sh start [--fast] | halt DIR | resume DIR | stop DIR' ;;
esac

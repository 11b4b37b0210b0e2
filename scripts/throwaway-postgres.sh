#!/usr/bin/env bash
# A throwaway PostgreSQL 15 on loopback (initdb + pg_ctl on a temporary directory and a free port), for the
# benchmark and for trying Assent on PostgreSQL by hand. initdb refuses root, so the server runs as `postgres`.
#
#   scripts/throwaway-postgres.sh start DIR      prints postgres://postgres@127.0.0.1:PORT/assent
#   scripts/throwaway-postgres.sh stop DIR
set -euo pipefail
bin=/usr/lib/postgresql/15/bin
[[ -x $bin/initdb ]] || { echo "throwaway-postgres.sh: $bin/initdb missing; install postgresql-15" >&2; exit 1; }
as_postgres() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
command=${1:?start or stop}; dir=${2:?a directory}
case $command in
start)
    mkdir -p "$dir"; chmod 777 "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    as_postgres "$bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/pg.log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=on" start >/dev/null
    as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres assent
    echo "postgres://postgres@127.0.0.1:$port/assent"
    ;;
stop)
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null
    ;;
*) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL cluster:
#   scripts/with_postgres.sh .venv/bin/pytest
# The cluster lives in a fresh temporary directory, listens on a free port on 127.0.0.1 only,
# and is stopped and deleted when the command ends, whether it passed, failed or was
# interrupted. The command sees DATABASE_URL=postgres://postgres@127.0.0.1:PORT/postgres.
# initdb refuses to run as root, so as root the server runs as the `postgres` user.
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARG...]" >&2
    exit 2
fi

bindir=$(dirname "$(ls -1 /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)")
if [ ! -x "$bindir/initdb" ]; then
    echo "$0: no PostgreSQL server under /usr/lib/postgresql/*/bin" >&2
    exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/lanterloo-pg.XXXXXX")
as_server=()
if [ "$(id -u)" = 0 ]; then
    chown postgres: "$dir"
    as_server=(runuser -u postgres --)
fi

# Server commands run from inside the cluster's directory, which the postgres user can enter.
server() { (cd "$dir" && "${as_server[@]}" "$@"); }

cleanup() {
    if [ -f "$dir/data/postmaster.pid" ]; then
        server "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

server "$bindir/initdb" -D "$dir/data" -A trust -U postgres --no-sync \
    >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -s \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start || { cat "$dir/server.log" >&2; exit 1; }

echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
# In the background so that a signal reaches this script at once (bash runs traps only
# between commands); the signal is passed on to the command, then the cluster is removed.
DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" "$@" <&0 &
child=$!
trap 'kill -INT "$child" 2>/dev/null; wait "$child"; exit 130' INT
trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 143' TERM
wait "$child"

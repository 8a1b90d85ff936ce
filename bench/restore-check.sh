#!/usr/bin/env bash
# A backup and a restore, tried end to end (docs/deployment.md, "Backups"):
#   1. a scratch database migrated by the release step (MIGRATE=only), the demo data in it;
#   2. the service on it: a person with an API key books a grooming slot through the API;
#   3. pg_dump --format=custom of that database, while the service runs;
#   4. pg_restore into a second, empty database;
#   5. the service on the restored database with MIGRATE=false (it refuses a database missing a
#      migration) answers GET /v1/bookings/{id} for the booking, with the same key, as before;
#   6. both scratch databases are dropped.
# Needs pg_dump/pg_restore of the server's major version, createdb/dropdb, curl and jq.
#
#   SERVER_URL=postgres://root@127.0.0.1:5432 bench/restore-check.sh     # the default
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER_URL=${SERVER_URL:-postgres://root@127.0.0.1:5432}
SRC=nogpets_backup_src_$$
DST=nogpets_restore_check_$$
WORK=$(mktemp -d)
DUMP=$WORK/nogpets.dump
PID=
say() { printf '\n== %s\n' "$*"; }
stop() { if [ -n "$PID" ]; then kill -TERM "$PID" 2>/dev/null && wait "$PID" 2>/dev/null || true; PID=; fi; }
cleanup() {
  stop
  # --maintenance-db takes a connection string: the databases are made and dropped on SERVER_URL's
  # server, not on whatever the libpq defaults (PGHOST, the local socket) point at.
  dropdb --if-exists --force --maintenance-db="$SERVER_URL/postgres" "$SRC" || true
  dropdb --if-exists --force --maintenance-db="$SERVER_URL/postgres" "$DST" || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# curl that prints the answer and fails on a status of 400 or more.
call() {
  local out status
  out=$(mktemp -p "$WORK")
  status=$(curl -s -o "$out" -w '%{http_code}' "$@")
  if [ "$status" -ge 400 ]; then echo "$* answered $status: $(cat "$out")" >&2; return 1; fi
  cat "$out"
}

# Starts the all-in-one server (no worker) on database $1 with MIGRATE=$2; sets PID and BASE.
serve() {
  local log
  log=$(mktemp -p "$WORK")
  DATABASE_URL="$SERVER_URL/$1" MIGRATE=$2 RUN_WORKER=false PORT=0 HOST=127.0.0.1 LOG_LEVEL=warn \
    node --import tsx apps/server/src/main.ts >"$log" 2>&1 &
  PID=$!
  for _ in $(seq 1 120); do
    BASE=$(grep -o 'http://[^ ]*' "$log" || true)
    [ -n "$BASE" ] && return 0
    kill -0 "$PID" 2>/dev/null || { cat "$log"; return 1; }
    sleep 0.5
  done
  cat "$log"
  return 1
}

say "1. $SRC: created, migrated by the release step"
createdb --maintenance-db="$SERVER_URL/postgres" "$SRC"
DATABASE_URL="$SERVER_URL/$SRC" MIGRATE=only LOG_LEVEL=warn node --import tsx apps/server/src/main.ts

say "2. a booking through the API"
serve "$SRC" false
KEY=$(DATABASE_URL="$SERVER_URL/$SRC" pnpm --silent cli key create --email restore@example.com \
  --scopes pets,addresses,bookings:read,bookings:write | tail -1)
H=(-H "authorization: Bearer $KEY" -H 'content-type: application/json')
PET=$(call "$BASE/v1/pets" "${H[@]}" -d '{"name":"Rex","type":"DOG","weightKg":12,"coat":"SHORT"}' | jq -r .id)
ADDR=$(call "$BASE/v1/addresses" "${H[@]}" -d '{"label":"Home","line1":"12 Dorp Street","suburb":"Die Boord"}' | jq -r .id)
REQ='{"category":"grooming","addressId":"'$ADDR'","pets":[{"petId":"'$PET'","serviceIds":["groom-dog-bath"]}]}'
SLOT=$(call "$BASE/v1/availability" "${H[@]}" -d "$REQ" | jq -c '[.days[].slots[]][0]')
BOOKED=$(call "$BASE/v1/bookings" "${H[@]}" -H "idempotency-key: restore-$$" \
  -d "$(jq -c --argjson s "$SLOT" '. + {start: $s.start, resourceId: $s.resourceId, paymentMethod: "CASH", confirm: true}' <<<"$REQ")")
ID=$(jq -r .bookingId <<<"$BOOKED")
BEFORE=$(call "$BASE/v1/bookings/$ID" "${H[@]}" | jq -cS '{id, status, start, resourceId}')
echo "booked $BEFORE"
ROWS_SRC=$(psql -Atq "$SERVER_URL/$SRC" -c 'select count(*) from bookings')

say "3. pg_dump --format=custom while the service runs"
time pg_dump --format=custom --no-owner --file="$DUMP" "$SERVER_URL/$SRC"
ls -l "$DUMP"
stop

say "4. pg_restore into $DST"
createdb --maintenance-db="$SERVER_URL/postgres" "$DST"
time pg_restore --no-owner --exit-on-error --dbname="$SERVER_URL/$DST" "$DUMP"
ROWS_DST=$(psql -Atq "$SERVER_URL/$DST" -c 'select count(*) from bookings')
echo "bookings: $ROWS_SRC in the source, $ROWS_DST restored"

say "5. the service on the restored database (MIGRATE=false)"
serve "$DST" false
AFTER=$(call "$BASE/v1/bookings/$ID" "${H[@]}" | jq -cS '{id, status, start, resourceId}')
echo "read back $AFTER"
stop
if [ "$BEFORE" = "$AFTER" ] && [ "$ROWS_SRC" = "$ROWS_DST" ]; then
  say "restore check passed: booking $ID and all $ROWS_DST bookings are back"
else
  say "restore check FAILED"
  exit 1
fi

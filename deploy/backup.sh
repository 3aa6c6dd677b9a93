#!/bin/sh
# Back up the portal's PostgreSQL database into one file (pg_dump's custom format: compressed,
# restored with deploy/restore.sh or pg_restore).
#
#   DATABASE_URL=postgres://portal@127.0.0.1:5432/portal deploy/backup.sh [FILE]
#
# FILE defaults to portal-<UTC time>.dump in the current directory; the file's name is printed.
# The dump is consistent (one snapshot) while the site runs; nothing needs to stop. Point
# DATABASE_URL at PostgreSQL itself, not at pgbouncer. The file appears only once it is whole
# and reads back.
set -eu

: "${DATABASE_URL:?Set DATABASE_URL to the database to back up, e.g. postgres://portal@127.0.0.1:5432/portal}"
# libpq reads postgres:// addresses; Django's own options after "?" are not for it.
url=${DATABASE_URL%%\?*}
file=${1:-portal-$(date -u +%Y%m%dT%H%M%SZ).dump}
partial="$file.partial"

trap 'rm -f "$partial"' EXIT
pg_dump --format=custom --no-owner --no-privileges --dbname="$url" --file="$partial"
pg_restore --list "$partial" >/dev/null
mv "$partial" "$file"
trap - EXIT
echo "$file"

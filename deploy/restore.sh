#!/bin/sh
# Restore a backup made by deploy/backup.sh into DATABASE_URL's database.
#
#   DATABASE_URL=postgres://portal@127.0.0.1:5432/portal deploy/restore.sh FILE
#
# The database is created when it does not exist; an existing one must be empty (no tables):
# a restore never writes over a live site's data. To replace a database, stop the portal's
# processes, drop it (dropdb), then restore. Everything is restored in one transaction: on an
# error nothing is left half-restored. Afterwards run `manage.py migrate` (it applies the
# migrations of a newer portal than the backup) and start the processes again.
set -eu

: "${DATABASE_URL:?Set DATABASE_URL to the database to restore into, e.g. postgres://portal@127.0.0.1:5432/portal}"
file=${1:?Name the backup file: deploy/restore.sh FILE}
[ -r "$file" ] || { echo "restore: cannot read $file" >&2; exit 1; }
pg_restore --list "$file" >/dev/null || { echo "restore: $file is not a pg_dump archive" >&2; exit 1; }

url=${DATABASE_URL%%\?*}
name=${url##*/}
server=${url%/*}

exists=$(echo "SELECT 1 FROM pg_database WHERE datname = :'name'" \
  | psql --no-psqlrc -tA --dbname="$server/postgres" -v ON_ERROR_STOP=1 -v name="$name")
if [ "$exists" = 1 ]; then
  tables=$(psql --no-psqlrc -tA --dbname="$url" \
    -c "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')" </dev/null)
  if [ "$tables" != 0 ]; then
    echo "restore: database $name already has $tables tables; restore into an empty or new database (nothing was changed)" >&2
    exit 1
  fi
else
  createdb --maintenance-db="$server/postgres" "$name"
fi
pg_restore --no-owner --no-privileges --single-transaction --exit-on-error --dbname="$url" "$file"
echo "restored $file into $name"

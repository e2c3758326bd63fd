#!/usr/bin/env bash
# Regenerates schema/schema.sql: migrates a scratch database in a private cluster and dumps
# its schema. Usage: scripts/dump_schema.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d /tmp/kopt-schema.XXXXXX)
# Under root pg.sh may put the cluster in /tmp/kopt-pg-<hash>, $dir/pg a symlink to it.
trap 'bash scripts/pg.sh stop "$dir/pg" >/dev/null 2>&1
      if [ -L "$dir/pg" ]; then rm -rf "$(readlink "$dir/pg")"; fi
      rm -rf "$dir"' EXIT
bash scripts/pg.sh start --fast "$dir/pg" >/dev/null
url=$(bash scripts/pg.sh url "$dir/pg")
KOPT_DATABASE_URL="$url" bin/koptd migrate 2>/dev/null
{
  echo "-- The schema that migrations/ produce, for reading (regenerate: scripts/dump_schema.sh)."
  echo "-- Do not edit: change migrations/ instead."
  pg_dump --schema-only --no-owner --no-privileges "$url" | grep -v '^--' \
    | grep -v '^SET \|^SELECT pg_catalog' | cat -s
} > schema/schema.sql
echo "wrote schema/schema.sql"

#!/usr/bin/env bash
# The inbox and token-store tests run a real PostgreSQL: Debian's, started on a throw-away data directory by
# scripts/test-postgres.mjs. With ENTRADA_TEST_DATABASE_URL set, the tests use that server and nothing is installed.
set -euo pipefail
if [ -n "${ENTRADA_TEST_DATABASE_URL:-}" ]; then exit 0; fi
if node "$(dirname "$0")/test-postgres.mjs" --check >/dev/null; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's postgresql for the inbox and token-store tests..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null)
else
  echo "PostgreSQL's initdb and pg_ctl not found (PG_BIN=${PG_BIN:-unset}, /usr/lib/postgresql/*/bin). Install it (apt-get install postgresql), set PG_BIN, or point ENTRADA_TEST_DATABASE_URL at a server." >&2
  exit 1
fi

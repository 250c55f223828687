#!/usr/bin/env bash
# Demo placeholder: brings the local Neo4j up, shows its status, and stops it again.
# It will grow into `dxgraph build` + a sample `dxgraph ask` on the shipped DDXPlus sample.
# With NEO4J_URI set, that server is used and no local Neo4j is started.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
say() { echo "[demo] $*"; }
dx() { node bin/dxgraph.js "$@"; }

started_here=0
cleanup() {
  if [ "$started_here" = 1 ]; then
    say "stopping the Neo4j this demo started"
    dx neo4j stop || true
  fi
}
trap cleanup EXIT

if [ -z "${NEO4J_URI:-}" ]; then
  if dx neo4j status | grep -q 'Neo4j: running'; then
    say "using the local Neo4j that is already running"
  else
    dx neo4j start
    started_here=1
  fi
  dx neo4j status
else
  say "using NEO4J_URI=$NEO4J_URI"
fi

# (next: dxgraph build on datasets/ddxplus sample, then a sample question)
say "done"

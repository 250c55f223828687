#!/usr/bin/env bash
# The main job on the embedded defaults: split the shipped DDXPlus sample by patient,
# build the diagnostic KG from the training part (Neo4j + FAISS, no LLM), ask one
# held-out patient's question, and evaluate on held-out patients.
# With NEO4J_URI set, that server is used and no local Neo4j is started.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
say() { echo "[demo] $*"; }
dx() { node bin/dxgraph.js "$@"; }

WORK="${DXGRAPH_DEMO_DIR:-$ROOT/.dxgraph/demo}"
export DXGRAPH_DATA_DIR="${DXGRAPH_DATA_DIR:-$WORK/data}"
LIMIT="${DXGRAPH_DEMO_EVAL_LIMIT:-200}"

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
else
  say "using NEO4J_URI=$NEO4J_URI"
fi

say "1/4 patient-level split of datasets/ddxplus (60% train / 40% test, seed 1)"
rm -rf "$WORK/split"
dx split --source ddxplus:datasets/ddxplus --test-fraction 0.4 --seed 1 --out-dir "$WORK/split"

say "2/4 build the KG from the training part (hierarchy auto: ICD-10 chapters and blocks from the conditions' codes; no LLM)."
say "    It calibrates itself (docs/eval.md#calibration): five KGs, each of 80% of those patients, answer the"
say "    other 20% in turn (coded; the first also as text, with the shipped labelled vignettes but the blind"
say "    test*.jsonl); the fit is stored with the KG built from all of them"
dx build --source "ddxplus:$WORK/split/train"

say "3/4 ask: a short free-text description"
dx ask "Sharp chest pain, worse when breathing in, better leaning forward. No cough."

say "4/4 evaluate on $LIMIT held-out patients (full + interactive protocols)"
dx eval --test "ddxplus:$WORK/split/test" --protocol full,interactive --questions 0,1,3,5,10 \
  --limit "$LIMIT" --json "$WORK/eval.json" --report "$WORK/eval.html"
say "report: $WORK/eval.html  ·  JSON: $WORK/eval.json"
say "serve it: node bin/dxgraph.js serve   (copilot page at http://127.0.0.1:8080/)"

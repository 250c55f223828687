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

say "2/4 build the KG from 80% of the training part (hierarchy auto: ICD-10 chapters and blocks from the conditions' codes; no LLM),"
say "    then calibrate its probabilities: coded input on the other 20% (never in the KG), free text on every labelled"
say "    vignette set but the blind test*.jsonl (878 cases; docs/eval.md#calibration)"
rm -rf "$WORK/fit"
dx split --source "ddxplus:$WORK/split/train" --test-fraction 0.2 --seed 2 --out-dir "$WORK/fit"
CAL_TEXT=$(printf 'datasets/vignettes/%s.jsonl,' cal dev dev-b dev-c dev-d dev-e)
dx build --source "ddxplus:$WORK/fit/train" --calibrate-held-out "ddxplus:$WORK/fit/test" --calibrate-text-cases "${CAL_TEXT%,}"

say "3/4 ask: a short free-text description"
dx ask "Sharp chest pain, worse when breathing in, better leaning forward. No cough."

say "4/4 evaluate on $LIMIT held-out patients (full + interactive protocols)"
dx eval --test "ddxplus:$WORK/split/test" --protocol full,interactive --questions 0,1,3,5,10 \
  --limit "$LIMIT" --json "$WORK/eval.json" --report "$WORK/eval.html"
say "report: $WORK/eval.html  ·  JSON: $WORK/eval.json"
say "serve it: node bin/dxgraph.js serve   (copilot page at http://127.0.0.1:8080/)"

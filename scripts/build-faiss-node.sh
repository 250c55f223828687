#!/usr/bin/env bash
# Make faiss-node's native binding available (node_modules/faiss-node/build/Release/faiss-node.node).
#
# npm installs with --ignore-scripts here because faiss-node's own install script
# (prebuild-install || git clone faiss + cmake-js) needs GitHub. This script does the
# same job in an order that works offline:
#   1. skip if the binding already exists and loads (idempotent, fast second run);
#   2. try the package's prebuilt binary (prebuild-install, short timeout);
#   3. otherwise compile the package's own C++ source (src/faiss.cc) with node-gyp
#      against Debian's libfaiss-dev (faiss 1.7.3). Two details differ from the
#      faiss 1.7.4 the binding targets: idx_t lives in faiss::Index (patched in a
#      copy of the source), and the static libfaiss.a needs BLAS/LAPACK/OpenMP
#      linked explicitly (-lfaiss -lblas -llapack -lgomp). The copy is also patched
#      (scripts/patch-faiss-node.py) so add/train/search read a Float32Array in place
#      (the stock binding converts element by element: ~30 s per 100k 512-d vectors) and
#      search frees its query buffer (the stock binding leaks it).
# Details and troubleshooting: docs/faiss-node.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PKG="$ROOT/node_modules/faiss-node"
TARGET="$PKG/build/Release/faiss-node.node"
WORK="$PKG/.dxgraph-build"
PREBUILD_TIMEOUT="${FAISS_PREBUILD_TIMEOUT:-30}"

say() { echo "[build-faiss-node] $*"; }
die() { echo "[build-faiss-node] ERROR: $*" >&2; exit 1; }

# A real smoke test, not just "file exists": a stale or wrong-ABI binary fails here.
loads() {
  (cd "$ROOT" && node -e "
    const { IndexFlatIP } = require('faiss-node');
    const ix = new IndexFlatIP(2); ix.add([1, 0, 0, 1]);
    const r = ix.search([1, 0], 1);
    if (r.labels[0] !== 0) process.exit(1);
  ") >/dev/null 2>&1
}

# Our patched build (section 4) takes Float32Arrays; a binding built from source without the
# patch (an older setup) is rebuilt, a prebuilt one is kept (the adapter falls back to arrays).
takes_float32() {
  (cd "$ROOT" && node -e "
    const { IndexFlatIP } = require('faiss-node');
    const ix = new IndexFlatIP(2); ix.add(new Float32Array([1, 0, 0, 1]));
    if (ix.ntotal() !== 2 || ix.search(new Float32Array([0, 1]), 1).labels[0] !== 1) process.exit(1);
  ") >/dev/null 2>&1
}

[ -d "$PKG" ] || die "node_modules/faiss-node is missing: run 'npm ci --ignore-scripts' first"

if [ -f "$TARGET" ] && loads && { takes_float32 || [ ! -d "$WORK" ]; }; then
  say "faiss-node binding present and loads: nothing to do"
  exit 0
fi

# --- 1. prebuilt binary -------------------------------------------------------
PREBUILD_BIN="$ROOT/node_modules/.bin/prebuild-install"
if [ -x "$PREBUILD_BIN" ]; then
  say "trying the prebuilt binary (timeout ${PREBUILD_TIMEOUT}s)"
  if (cd "$PKG" && timeout "$PREBUILD_TIMEOUT" "$PREBUILD_BIN" --runtime napi) >"$ROOT/.faiss-prebuild.log" 2>&1 && loads; then
    rm -f "$ROOT/.faiss-prebuild.log"
    say "prebuilt binary installed"
    exit 0
  fi
  say "prebuilt binary unavailable ($(tail -n 1 "$ROOT/.faiss-prebuild.log" 2>/dev/null || echo 'no output')); building from source"
  rm -f "$ROOT/.faiss-prebuild.log"
fi

# --- 2. system packages -------------------------------------------------------
need_pkgs=()
for p in libfaiss-dev libblas-dev liblapack-dev g++ make python3; do
  dpkg -s "$p" >/dev/null 2>&1 || need_pkgs+=("$p")
done
if [ "${#need_pkgs[@]}" -gt 0 ]; then
  command -v apt-get >/dev/null || die "missing packages ${need_pkgs[*]} and no apt-get to install them"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  say "installing ${need_pkgs[*]} with apt-get"
  $SUDO apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_pkgs[@]}" >/dev/null \
    || die "apt-get install ${need_pkgs[*]} failed"
fi
[ -f /usr/include/faiss/Index.h ] || die "faiss headers not found in /usr/include/faiss (libfaiss-dev)"

# --- 3. node headers and node-addon-api ------------------------------------------
# Headers: node-gyp downloads them unless told where they are; Debian's nodejs ships
# them in /usr/include/node, so point node-gyp at /usr (offline).
NODEDIR=""
NODE_PREFIX="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
for d in "${npm_config_nodedir:-}" "$NODE_PREFIX" /usr /usr/local; do
  if [ -n "$d" ] && [ -f "$d/include/node/node_api.h" ]; then NODEDIR="$d"; break; fi
done
[ -n "$NODEDIR" ] || die "node headers (include/node/node_api.h) not found; install Debian's libnode-dev or set npm_config_nodedir"

ADDON_INC="$(cd "$ROOT" && node -p "require('node-addon-api').include_dir" 2>/dev/null | tr -d '"')" \
  || die "node-addon-api is missing (a faiss-node dependency): run 'npm ci --ignore-scripts'"
case "$ADDON_INC" in /*) ;; *) ADDON_INC="$ROOT/$ADDON_INC" ;; esac
[ -f "$ADDON_INC/napi.h" ] || ADDON_INC="$ROOT/node_modules/node-addon-api"
[ -f "$ADDON_INC/napi.h" ] || die "napi.h not found in node-addon-api"

# node-gyp: a local one if installed, else the copy bundled with npm.
GYP=""
if [ -x "$ROOT/node_modules/.bin/node-gyp" ]; then
  GYP="$ROOT/node_modules/.bin/node-gyp"
else
  NPM_DIR="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
  for c in "$NPM_DIR/node_modules/node-gyp/bin/node-gyp.js" "$(npm root -g 2>/dev/null)/npm/node_modules/node-gyp/bin/node-gyp.js"; do
    if [ -f "$c" ]; then GYP="node $c"; break; fi
  done
fi
[ -n "$GYP" ] || die "node-gyp not found (neither in node_modules nor bundled with npm)"

# --- 4. patched copy of the binding source + binding.gyp --------------------------
rm -rf "$WORK"
mkdir -p "$WORK/src"
if grep -q 'idx_t = int64_t' /usr/include/faiss/MetricType.h 2>/dev/null; then
  cp "$PKG/src/faiss.cc" "$WORK/src/faiss.cc"             # faiss >= 1.7.4: source fits as is
else
  sed 's/^using idx_t = faiss::idx_t;/using idx_t = faiss::Index::idx_t;/' "$PKG/src/faiss.cc" >"$WORK/src/faiss.cc"
  grep -q 'faiss::Index::idx_t' "$WORK/src/faiss.cc" || die "could not patch idx_t in faiss.cc (binding source changed?)"
fi
python3 "$ROOT/scripts/patch-faiss-node.py" "$WORK/src/faiss.cc" || die "could not apply the Float32Array patch to faiss.cc (binding source changed?)"

cat >"$WORK/binding.gyp" <<EOF
{
  "targets": [{
    "target_name": "faiss-node",
    "sources": ["src/faiss.cc"],
    "include_dirs": ["$ADDON_INC", "/usr/include"],
    "defines": ["NAPI_VERSION=6", "NAPI_CPP_EXCEPTIONS"],
    "cflags!": ["-fno-exceptions"],
    "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17", "-std=gnu++14"],
    "cflags_cc": ["-std=c++17", "-fexceptions", "-frtti", "-fopenmp", "-O2"],
    "ldflags": ["-fopenmp"],
    "libraries": ["-lfaiss", "-lblas", "-llapack", "-lgomp"]
  }]
}
EOF

say "compiling faiss-node from source against system faiss (node headers: $NODEDIR/include/node)"
LOG="$WORK/build.log"
if ! (cd "$WORK" && $GYP rebuild --nodedir="$NODEDIR" --jobs="$(nproc)") >"$LOG" 2>&1; then
  tail -n 30 "$LOG" >&2
  die "node-gyp build failed (full log: $LOG)"
fi

mkdir -p "$PKG/build/Release"
# A new file renamed into place: running processes keep the old one mapped (cp over it could crash them).
cp "$WORK/build/Release/faiss-node.node" "$TARGET.tmp.$$" && mv -f "$TARGET.tmp.$$" "$TARGET"
loads || die "built $TARGET but it does not load: see $LOG"
takes_float32 || die "built $TARGET but it does not take Float32Arrays: see $LOG"
say "built and verified $TARGET"

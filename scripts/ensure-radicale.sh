#!/usr/bin/env bash
# Makes Debian's Radicale 3 (python3-radicale) importable by /usr/bin/python3: the CalDAV bench's
# reference server. Does nothing when it already is; installs it with apt-get as root otherwise.
# Debian's python, not the one first on PATH: a pyenv python does not see Debian's packages.
set -euo pipefail
if /usr/bin/python3 -c 'import radicale' 2>/dev/null; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "==> installing python3-radicale (the CalDAV bench's reference server) with apt-get" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-radicale >/dev/null
  /usr/bin/python3 -c 'import radicale'
else
  echo "python3-radicale is missing: sudo apt-get install -y python3-radicale" >&2
  exit 1
fi

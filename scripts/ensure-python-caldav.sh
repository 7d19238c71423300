#!/usr/bin/env bash
# Makes Debian's python3-caldav importable by /usr/bin/python3: the second independent CalDAV client of
# the calendar's interop test (apps/calendar/test/interop/caldav_client.py). Does nothing when it already
# is; installs it with apt-get as root otherwise. Debian's python, not the one first on PATH: a pyenv
# python does not see Debian's packages.
set -euo pipefail
if /usr/bin/python3 -c 'import caldav' 2>/dev/null; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "==> installing python3-caldav (the CalDAV interop test's Python client) with apt-get" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-caldav >/dev/null
  /usr/bin/python3 -c 'import caldav'
else
  echo "python3-caldav is missing (the CalDAV interop test needs it): sudo apt-get install -y python3-caldav" >&2
  exit 1
fi

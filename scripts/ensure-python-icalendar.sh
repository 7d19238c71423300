#!/usr/bin/env bash
# Makes Debian's python3-icalendar importable by /usr/bin/python3: the ICS feed test's second,
# independent parser (apps/calendar/test/integration/ics-feed.int-spec.ts). Does nothing when it
# already is; installs it with apt-get as root otherwise. Debian's python, not the one first on PATH:
# a pyenv python does not see Debian's packages.
set -euo pipefail
if /usr/bin/python3 -c 'import icalendar' 2>/dev/null; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "==> installing python3-icalendar (the ICS feed test's second parser) with apt-get" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-icalendar >/dev/null
  /usr/bin/python3 -c 'import icalendar'
else
  echo "python3-icalendar is missing: sudo apt-get install -y python3-icalendar" >&2
  exit 1
fi

#!/usr/bin/python3
"""python-dateutil as a test oracle for libs/recurrence.

Reads a JSON list of cases on stdin and prints {id: [occurrence, ...]} (or {id: {"error": "..."}}).
A case: {"id", "start": {"date": "YYYY-MM-DD"} | {"dateTime": "YYYY-MM-DDTHH:MM:SS[Z]", "timeZone"?},
"lines": ["RRULE:...", "EXDATE;TZID=...:...", ...], "max": N, "to"?: "YYYY-MM-DDTHH:MM:SSZ"}.

The set is built the way rrulestr(..., compatible=True) builds it (an rruleset whose RDATEs include
DTSTART), with tz-aware datetimes from zoneinfo (system tzdata): zoneinfo reads a nonexistent wall time
with the offset before the gap (fold=0), as RFC 5545 3.3.5 does; dateutil.tz.gettz would not. RRULE and
EXRULE values go through dateutil's own parser (rrulestr); RDATE/EXDATE values are read here because
rrulestr refuses RDATE;TZID. Occurrences are printed as UTC instants 'YYYY-MM-DDTHH:MM:SSZ' (timed
series) or dates 'YYYY-MM-DD' (all-day series), ascending, at most "max", starting before "to".
"""
import json
import sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr, rruleset


def parse_start(start):
    if "date" in start:
        return datetime.strptime(start["date"], "%Y-%m-%d"), None
    text = start["dateTime"]
    zone = start.get("timeZone")
    if text.endswith("Z"):
        dt = datetime.strptime(text[:-1], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc)
        if zone and zone != "UTC":
            tz = ZoneInfo(zone)
            return dt.astimezone(tz), tz
        return dt, timezone.utc
    tz = ZoneInfo(zone)
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=tz), tz


def parse_values(head, value, series_tz):
    params = dict(p.split("=", 1) for p in head.split(";")[1:])
    tz = ZoneInfo(params["TZID"]) if "TZID" in params else None
    out = []
    for item in value.split(","):
        if params.get("VALUE") == "PERIOD":
            item = item.split("/")[0]
        if len(item) == 8:
            out.append(datetime.strptime(item, "%Y%m%d"))
        elif item.endswith("Z"):
            out.append(datetime.strptime(item[:-1], "%Y%m%dT%H%M%S").replace(tzinfo=timezone.utc))
        else:
            naive = datetime.strptime(item, "%Y%m%dT%H%M%S")
            out.append(naive.replace(tzinfo=tz or series_tz) if (tz or series_tz) else naive)
    return out


def run(case):
    dtstart, tz = parse_start(case["start"])
    rset = rruleset()
    for line in case["lines"]:
        head, value = line.split(":", 1)
        name = head.split(";")[0].upper()
        if name == "RRULE":
            rset.rrule(rrulestr("RRULE:" + value, dtstart=dtstart))
        elif name == "EXRULE":
            rset.exrule(rrulestr("RRULE:" + value, dtstart=dtstart))
        elif name == "RDATE":
            for dt in parse_values(head, value, tz):
                rset.rdate(dt)
        elif name == "EXDATE":
            for dt in parse_values(head, value, tz):
                rset.exdate(dt)
        else:
            raise ValueError("unsupported line " + line)
    rset.rdate(dtstart)
    to = None
    if case.get("to"):
        to = datetime.strptime(case["to"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    out = []
    for dt in rset:
        if len(out) >= case["max"]:
            break
        if tz is None:
            if to is not None and dt >= to.replace(tzinfo=None):
                break
            out.append(dt.strftime("%Y-%m-%d"))
        else:
            utc = dt.astimezone(timezone.utc)
            if to is not None and utc >= to:
                break
            out.append(utc.strftime("%Y-%m-%dT%H:%M:%SZ"))
    return out


def main():
    results = {}
    for case in json.load(sys.stdin):
        try:
            results[case["id"]] = run(case)
        except Exception as e:  # reported per case; the spec decides what an error means
            results[case["id"]] = {"error": "%s: %s" % (type(e).__name__, e)}
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()

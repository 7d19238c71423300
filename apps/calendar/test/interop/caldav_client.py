"""A second, independent CalDAV client for the calendar's interop test (caldav-interop.int-spec.ts).

Debian's python3-caldav (0.11 on bookworm) run by /usr/bin/python3 against the running server, through
the library's public API only: discovery, listing, create, a time-range search with server-side
expansion, edit, sync-collection, delete, and a write over a product event that must be refused.
Every step is recorded; the last line printed is one JSON object the jest test asserts on. A step that
raises is recorded with its exception and the script goes on, so one failure does not hide the rest.

usage: caldav_client.py BASE_URL USERNAME PASSWORD CALENDAR_PATH PRODUCT_EVENT_HREF
"""

import json
import sys
import traceback
from datetime import datetime, timezone

import caldav
from caldav.elements import dav
from caldav.lib import error

BERLIN = """BEGIN:VTIMEZONE
TZID:Europe/Berlin
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
TZNAME:CEST
DTSTART:19700329T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
TZNAME:CET
DTSTART:19701025T030000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE"""

# Weekly on Wednesdays 09:00 Berlin across the October DST change; one search day holds one occurrence.
WEEKLY = f"""BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//python-caldav interop//EN
{BERLIN}
BEGIN:VEVENT
UID:py-weekly-1
DTSTAMP:20261001T000000Z
DTSTART;TZID=Europe/Berlin:20261007T090000
DTEND;TZID=Europe/Berlin:20261007T093000
SUMMARY:Python weekly
RRULE:FREQ=WEEKLY;COUNT=8
END:VEVENT
END:VCALENDAR
"""

SINGLE = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//python-caldav interop//EN
BEGIN:VEVENT
UID:py-single-1
DTSTAMP:20261001T000000Z
DTSTART:20261210T100000Z
DTEND:20261210T110000Z
SUMMARY:Python single
END:VEVENT
END:VCALENDAR
"""

UTC = timezone.utc
result = {"steps": {}, "errors": {}}


def step(name):
    """Runs a step, recording what it returns, or the exception it raised."""

    def wrap(fn):
        try:
            result["steps"][name] = fn()
        except Exception as e:  # recorded for the test to show, never swallowed silently
            result["errors"][name] = f"{type(e).__name__}: {e}"[:500]
            traceback.print_exc(file=sys.stderr)
        return fn

    return wrap


def summary_of(event):
    return str(event.vobject_instance.vevent.summary.value)


def main():
    base, username, password, calendar_path, product_href = sys.argv[1:6]
    client = caldav.DAVClient(base, username=username, password=password, timeout=30)
    state = {}

    @step("discovery")
    def _():
        principal = client.principal()
        state["principal"] = principal
        calendars = principal.calendars()
        state["calendar"] = next(c for c in calendars if c.url.path == calendar_path)
        return {
            "principal": principal.url.path,
            "home": principal.calendar_home_set.url.path,
            "calendars": [c.url.path for c in calendars],
            "components": state["calendar"].get_supported_components(),
        }

    cal = state.get("calendar")
    if cal is None:
        print(json.dumps(result))
        return

    @step("create")
    def _():
        weekly = cal.save_event(WEEKLY)
        single = cal.save_event(SINGLE)
        state["weekly"], state["single"] = weekly, single
        return {"weekly": weekly.url.path, "single": single.url.path}

    @step("sync_initial")
    def _():
        objects = cal.objects(load_objects=False)
        state["sync"] = objects
        return {"token": objects.sync_token, "hrefs": sorted(str(o.url.path) for o in objects)}

    @step("search_expanded")
    def _():
        start = datetime(2026, 10, 28, 0, 0, tzinfo=UTC)
        end = datetime(2026, 10, 29, 0, 0, tzinfo=UTC)
        found = cal.search(start=start, end=end, event=True, expand=True)
        # The same query as sent, answered as the server sent it: the library expands client-side when
        # a server leaves RRULE in, so the raw answer shows whether the server did the expansion.
        (xml, comp_class) = cal.build_search_xml_query(start=start, end=end, event=True, expand=True)
        raw = cal.search(xml=xml, comp_class=comp_class)
        return {
            "count": len(found),
            "summaries": [summary_of(e) for e in found],
            "starts": [e.vobject_instance.vevent.dtstart.value.astimezone(UTC).isoformat() for e in found],
            "raw_count": len(raw),
            "raw_hrefs": [str(e.url.path) for e in raw],
            "raw_has_rrule": any("RRULE" in e.data for e in raw),
            "raw_vevents": sum(e.data.count("BEGIN:VEVENT") for e in raw),
            "raw_recurrence_id": all("RECURRENCE-ID" in e.data for e in raw),
        }

    @step("search_outside")
    def _():
        found = cal.search(
            start=datetime(2027, 3, 1, tzinfo=UTC), end=datetime(2027, 3, 2, tzinfo=UTC), event=True
        )
        return {"count": len(found)}

    @step("edit")
    def _():
        single = cal.event_by_url(state["single"].url).load()
        etag_before = single.props.get(dav.GetEtag.tag)
        single.vobject_instance.vevent.summary.value = "Python single, edited"
        single.save()
        again = cal.event_by_url(state["single"].url).load()
        return {
            "summary": summary_of(again),
            "etag_before": etag_before,
            "etag_after": again.props.get(dav.GetEtag.tag),
        }

    @step("sync_changes")
    def _():
        updates = cal.objects_by_sync_token(state["sync"].sync_token, load_objects=False)
        return {"hrefs": sorted(str(o.url.path) for o in updates), "token": updates.sync_token}

    @step("delete")
    def _():
        url = state["single"].url
        state["single"].delete()
        try:
            cal.event_by_url(url).load()
            gone = False
        except error.NotFoundError:
            gone = True
        return {"gone": gone, "remaining": sorted(str(e.url.path) for e in cal.events())}

    @step("product_write")
    def _():
        product = cal.event_by_url(product_href).load()
        before = {"summary": summary_of(product), "etag": product.props.get(dav.GetEtag.tag)}
        product.vobject_instance.vevent.summary.value = "Hijacked by python"
        refused = None
        try:
            product.save()
        except error.DAVError as e:
            refused = type(e).__name__
        after = cal.event_by_url(product_href).load()
        return {
            "refused": refused,
            "before": before,
            "after": {"summary": summary_of(after), "etag": after.props.get(dav.GetEtag.tag)},
        }

    print(json.dumps(result))


if __name__ == "__main__":
    main()

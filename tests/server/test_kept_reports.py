"""``KeptReports``: a finished game's report is kept until its names change, and one whose
data was read before they changed is never kept (it would name a deleted account by its
old name until it left the cache)."""

from __future__ import annotations

from raspisnoy.server.services.kept_reports import KeptReports


def test_a_report_is_kept_until_its_tables_names_change() -> None:
    reports = KeptReports(10)
    reports.keep("t1", "ReportOut", b"old", reports.reading())
    reports.keep("t1", "RecordOut", b"record", reports.reading())
    reports.keep("t2", "ReportOut", b"other", reports.reading())
    assert reports.get("t1", "ReportOut") == b"old"
    reports.forget(["t1"])
    assert reports.get("t1", "ReportOut") is None and reports.get("t1", "RecordOut") is None
    assert reports.get("t2", "ReportOut") == b"other"
    reports.keep("t1", "ReportOut", b"new", reports.reading())
    assert reports.get("t1", "ReportOut") == b"new"


def test_a_report_read_before_its_names_changed_is_not_kept() -> None:
    """The deletion's ``forget`` comes while the report is being built from the old
    names: it is sent, but not kept."""
    reports = KeptReports(10)
    read_at = reports.reading()
    reports.forget(["t1"])
    reports.keep("t1", "ReportOut", b"old names", read_at)
    assert reports.get("t1", "ReportOut") is None


def test_a_size_of_0_keeps_nothing() -> None:
    reports = KeptReports(0)
    reports.keep("t1", "ReportOut", b"report", reports.reading())
    assert reports.get("t1", "ReportOut") is None

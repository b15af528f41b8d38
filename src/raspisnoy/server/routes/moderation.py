"""Moderation (docs/moderation.md, ``services.moderation``): a player's report and notices,
and the moderators' reports, actions and log. Every moderators' route answers 403
``not_moderator`` to anyone else, a guest or no session included."""

from typing import Literal

from fastapi import APIRouter

from raspisnoy.server.deps import CurrentUser, OptionalUser, ServicesDep
from raspisnoy.server.wire import (
    ModerationIn,
    ModerationLogOut,
    ModerationOut,
    NoticesSeenIn,
    NoticesSeenOut,
    PlayerReportIn,
    PlayerReportOut,
    PlayerReportsOut,
    ReportDetailOut,
    StandingOut,
)

router = APIRouter(prefix="/api", tags=["moderation"])


@router.get("/moderation/me", response_model=StandingOut)
async def my_standing(user: CurrentUser, services: ServicesDep) -> StandingOut:
    """Whether the caller moderates, until when they are muted, and the moderators'
    actions on them not yet shown (the page shows each once, in its language)."""
    return await services.moderation.standing_of(user)


@router.post("/moderation/me/seen", response_model=NoticesSeenOut)
async def notices_seen(
    body: NoticesSeenIn, user: CurrentUser, services: ServicesDep
) -> NoticesSeenOut:
    """Mark notices shown."""
    return await services.moderation.seen(user, body.ids)


@router.post("/reports", response_model=PlayerReportOut, status_code=201)
async def report(body: PlayerReportIn, user: CurrentUser, services: ServicesDep) -> PlayerReportOut:
    """Report a player from a table, a chat line or a profile (registered accounts only,
    a few an hour)."""
    return await services.moderation.report(user, body)


@router.get("/moderation/reports", response_model=PlayerReportsOut)
async def reports(
    user: OptionalUser, services: ServicesDep, status: Literal["open", "resolved"] = "open"
) -> PlayerReportsOut:
    """The reports (moderators only)."""
    return await services.moderation.reports(user, status)


@router.get("/moderation/reports/{report_id}", response_model=ReportDetailOut)
async def report_detail(
    report_id: str, user: OptionalUser, services: ServicesDep
) -> ReportDetailOut:
    """One report with its chat context, table and the person's standing (moderators)."""
    return await services.moderation.report_detail(user, report_id)


@router.post("/moderation/reports/{report_id}/resolve", response_model=PlayerReportOut)
async def resolve(report_id: str, user: OptionalUser, services: ServicesDep) -> PlayerReportOut:
    """Close a report with no action (moderators only)."""
    return await services.moderation.resolve(user, report_id)


@router.post("/moderation/actions", response_model=ModerationOut, status_code=201)
async def act(body: ModerationIn, user: OptionalUser, services: ServicesDep) -> ModerationOut:
    """Warn, mute, unmute, ban or unban an account (moderators only); logged."""
    return await services.moderation.act(user, body)


@router.get("/moderation/actions", response_model=ModerationLogOut)
async def log(
    user: OptionalUser, services: ServicesDep, user_id: str | None = None
) -> ModerationLogOut:
    """The moderators' log, newest first, or its lines on ``user_id`` (moderators only)."""
    return await services.moderation.log(user, user_id)

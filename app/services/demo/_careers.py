"""The demo's job postings: three open roles in the teams the careers page names (credentialing in Chicago,
clinical quality in Los Angeles, engineering remote) and one draft HR is still writing, so /careers and
/staff/careers show their states. No applications: applicants are real people, and none are invented.
Idempotent: nothing is added once any posting exists.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.errors import PermissionDenied
from app.settings import get_settings
from models.base import new_id, utcnow
from models.careers import CareerPosting, EmploymentType, PostingStatus

E, S = EmploymentType, PostingStatus
# (slug, title, team, city, state (both empty: remote), type, status, description in Markdown)
POSTINGS: tuple[tuple[str, str, str, str, str, EmploymentType, PostingStatus, str], ...] = (
    (
        "credentialing-coordinator",
        "Credentialing Coordinator",
        "Provider operations and credentialing",
        "Chicago",
        "IL",
        E.full_time,
        S.open,
        "## What you'll do\n\n"
        "- Review new providers' licences, IDs, insurance and CPR certificates against the issuing boards\n"
        "- Follow up on expiring documents before they lapse\n"
        "- Explain clearly to applicants what is missing and why\n\n"
        "## What you bring\n\n"
        "- Experience with provider credentialing or licensing in healthcare\n"
        "- Care for detail, and the patience to get a record exactly right\n",
    ),
    (
        "clinical-quality-nurse",
        "Clinical Quality Nurse (RN)",
        "Clinical quality and compliance",
        "Los Angeles",
        "CA",
        E.part_time,
        S.open,
        "## What you'll do\n\n"
        "- Read visit notes and patient feedback, and follow up where care could be better\n"
        "- Keep our preparation guides for blood draws and IV therapy accurate\n"
        "- Work with providers on safe practice at home\n\n"
        "## What you bring\n\n"
        "- An active RN licence in California\n"
        "- Experience in home health, infusion or quality improvement\n",
    ),
    (
        "python-engineer",
        "Python Engineer",
        "Engineering and design",
        "",
        "",
        E.full_time,
        S.open,
        "## What you'll do\n\n"
        "- Build the screens and services patients, providers and staff use, all in Python\n"
        "- Write tests that show the product works for real people, keyboard and screen reader users included\n\n"
        "## What you bring\n\n"
        "- Experience with Python web services and SQL databases\n"
        "- Clear writing: our code is read by other teams as an example\n",
    ),
    (
        "partnerships-manager",
        "Partnerships Manager",
        "Partnerships and corporate services",
        "New York",
        "NY",
        E.full_time,
        S.draft,
        "## What you'll do\n\nBring on-site flu shots and screenings to employers. (Draft: HR is still writing it.)\n",
    ),
)


async def seed_demo_careers(*, session: AsyncSession) -> list[str]:
    """Add the demo postings once; returns the lines to print."""
    if get_settings().is_production:
        raise PermissionDenied("Demo data is never created with APP_ENV=production.")
    if await session.scalar(select(CareerPosting.id).limit(1)):
        return ["already present"]
    now = utcnow()
    await session.execute(
        insert(CareerPosting),
        [
            {
                "id": new_id(),
                "slug": slug,
                "title": title,
                "team": team,
                "remote": not city,
                "city": city,
                "state": state,
                "employment_type": kind.value,
                "description": description,
                "status": status.value,
                # newest first on /careers: in the order listed
                "opened_at": now - timedelta(days=index) if status == S.open else None,
                "created_at": now - timedelta(days=index),
                "updated_at": now - timedelta(days=index),
            }
            for index, (slug, title, team, city, state, kind, status, description) in enumerate(POSTINGS)
        ],
    )
    opened = sum(1 for posting in POSTINGS if posting[6] == S.open)
    return [f"{opened} open job postings and {len(POSTINGS) - opened} draft"]

"""The reference catalog: the four categories of SPEC §2 and the services offered in them, with list prices
(USD), visit lengths, preparation and where each can happen. `python -m medivisit seed` adds whatever is missing.

Prices are list prices; each provider sets their own price for the services they offer.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from models.catalog import ServiceLocation as L

HOME, OFFICE, CLINIC, VIRTUAL, VENUE = L.home, L.office, L.clinic, L.virtual, L.corporate_venue

FASTING = (
    "If your clinician ordered a fasting test (such as fasting glucose or a lipid panel), have nothing but "
    "plain water for 8–12 hours before the visit. Keep drinking water: it makes veins easier to find."
)
HYDRATE = (
    "Eat a light meal and drink water in the hours before the visit: it makes the IV easier to place and "
    "helps you feel well during the infusion. Have a list of your medications and allergies ready."
)


@dataclass(frozen=True)
class ReferenceService:
    slug: str
    name: str
    description: str
    preparation: str
    duration_minutes: int
    price: Decimal
    locations: tuple[L, ...]


@dataclass(frozen=True)
class ReferenceCategory:
    slug: str
    name: str
    services: tuple[ReferenceService, ...]


CATALOG: tuple[ReferenceCategory, ...] = (
    ReferenceCategory(
        "phlebotomy",
        "Mobile Phlebotomy",
        (
            ReferenceService(
                "routine-blood-draw",
                "Routine blood draw",
                "A blood draw for the tests on your lab order, labelled and delivered to your lab.",
                FASTING + " Have your lab order and photo ID ready.",
                30,
                Decimal("79"),
                (HOME, OFFICE, CLINIC, VENUE),
            ),
            ReferenceService(
                "fasting-blood-draw",
                "Early-morning fasting draw",
                "A first-thing-in-the-morning draw for fasting tests, so you can eat as soon as it is done.",
                "Fast for 8–12 hours as your clinician instructed; plain water is fine and helps. "
                "Have your lab order and photo ID ready.",
                30,
                Decimal("89"),
                (HOME, OFFICE),
            ),
            ReferenceService(
                "lab-kit-collection",
                "Collection with your lab kit",
                "A draw using the kit your lab or insurer sent you, packed and shipped as the kit requires.",
                "Have the unopened kit, its paperwork and your photo ID ready. " + FASTING,
                30,
                Decimal("69"),
                (HOME, OFFICE),
            ),
            ReferenceService(
                "pediatric-blood-draw",
                "Blood draw for children",
                "A draw for a child, with extra time to settle in, by a phlebotomist experienced with "
                "children.",
                "Give your child plenty of water unless fasting is required. A favorite toy or a tablet helps. "
                "Have the lab order ready.",
                45,
                Decimal("99"),
                (HOME,),
            ),
        ),
    ),
    ReferenceCategory(
        "iv-therapy",
        "IV Therapy",
        (
            ReferenceService(
                "iv-hydration",
                "Hydration IV (1 liter)",
                "One liter of IV fluids, given by a registered nurse after a health screening.",
                HYDRATE,
                60,
                Decimal("149"),
                (HOME, OFFICE, CLINIC, VENUE),
            ),
            ReferenceService(
                "iv-vitamin-infusion",
                "Vitamin infusion (Myers' cocktail)",
                "IV fluids with B vitamins, vitamin C, magnesium and calcium, following a clinician-approved "
                "protocol.",
                HYDRATE,
                60,
                Decimal("229"),
                (HOME, OFFICE, CLINIC),
            ),
            ReferenceService(
                "iv-electrolytes",
                "Electrolyte recovery IV",
                "IV fluids with electrolytes after illness, travel, heat or exertion.",
                HYDRATE,
                60,
                Decimal("189"),
                (HOME, OFFICE, CLINIC, VENUE),
            ),
            ReferenceService(
                "iv-immune-support",
                "Vitamin C and zinc IV",
                "IV fluids with vitamin C and zinc, following a clinician-approved protocol.",
                HYDRATE,
                45,
                Decimal("199"),
                (HOME, OFFICE, CLINIC),
            ),
        ),
    ),
    ReferenceCategory(
        "nursing",
        "In-Home Nursing",
        (
            ReferenceService(
                "wound-care",
                "Wound care and dressing change",
                "Cleaning and dressing a wound as your care plan describes, and checking how it heals.",
                "Have your discharge instructions or care plan and any dressings you were prescribed on hand. "
                "Set up a clean, well-lit space near a sink.",
                45,
                Decimal("119"),
                (HOME,),
            ),
            ReferenceService(
                "injection-visit",
                "Injection or medication visit",
                "A prescribed injection or medication given at home or at work.",
                "Have the medication, its prescription label and your medication list ready.",
                30,
                Decimal("89"),
                (HOME, OFFICE),
            ),
            ReferenceService(
                "post-surgical-check",
                "Post-surgical check",
                "A check of your recovery after surgery: vital signs, the incision, pain and medication.",
                "Have your discharge instructions, medication list and follow-up appointments at hand.",
                60,
                Decimal("139"),
                (HOME,),
            ),
            ReferenceService(
                "medication-management",
                "Medication management and teaching",
                "A review of your medications with you or your family, and how to take them safely.",
                "Gather all your medications, including vitamins and supplements, and your current list.",
                60,
                Decimal("109"),
                (HOME, VIRTUAL),
            ),
            ReferenceService(
                "chronic-care-check-in",
                "Chronic condition check-in",
                "Vital signs and a check-in for an ongoing condition, reported back to your clinician.",
                "Have your readings log (blood pressure, glucose) and medication list ready.",
                30,
                Decimal("79"),
                (HOME, VIRTUAL),
            ),
        ),
    ),
    ReferenceCategory(
        "diagnostics",
        "At-Home Diagnostics",
        (
            ReferenceService(
                "glucose-a1c-screening",
                "Glucose and A1C screening",
                "A finger-stick glucose and A1C screening with results during the visit.",
                "For a fasting glucose result, have nothing but water for 8 hours beforehand.",
                30,
                Decimal("69"),
                (HOME, OFFICE, CLINIC, VENUE),
            ),
            ReferenceService(
                "blood-pressure-screening",
                "Blood pressure and heart health screening",
                "Blood pressure, pulse and a cholesterol finger-stick screening.",
                "Avoid caffeine, exercise and smoking for 30 minutes beforehand; sit quietly for 5 minutes.",
                30,
                Decimal("59"),
                (HOME, OFFICE, CLINIC, VENUE),
            ),
            ReferenceService(
                "swab-collection",
                "Swab sample collection",
                "A nose or throat swab collected and sent to the lab, for example for flu or strep testing.",
                "Do not eat, drink, brush your teeth or use mouthwash for 30 minutes before a throat swab.",
                30,
                Decimal("79"),
                (HOME, OFFICE, CLINIC),
            ),
            ReferenceService(
                "urine-collection",
                "Urine sample collection",
                "A urine sample collected with a sterile kit and delivered to the lab on your order.",
                "If your test needs a first-morning sample, book an early visit and do not urinate until "
                "the provider arrives.",
                30,
                Decimal("59"),
                (HOME, OFFICE),
            ),
            ReferenceService(
                "results-review",
                "Results review (video visit)",
                "A video visit with a clinician to go over recent screening or lab results.",
                "Have your results, medication list and questions ready; test your camera and microphone.",
                30,
                Decimal("49"),
                (VIRTUAL,),
            ),
            ReferenceService(
                "employee-screening",
                "Employee health screening",
                "Blood pressure, glucose and BMI screenings for employees on site, per person.",
                "Employees screened for fasting glucose should fast for 8 hours; water is fine.",
                20,
                Decimal("49"),
                (OFFICE, VENUE),
            ),
        ),
    ),
)

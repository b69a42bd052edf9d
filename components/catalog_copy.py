"""Descriptive copy for the four service categories, shared by the services overview and the detail screens.

Plain data only (no prices: those come from the catalog once it exists). Locations use the service-location
names of SPEC §3: Home, Office, Clinic, Virtual, Corporate Venue.
"""

from __future__ import annotations

from dataclasses import dataclass

FLASH_SALE_TEXT = "24-hour flash sale: 30% off IV therapies today only."

LOCATIONS: dict[str, tuple[str, str]] = {
    "Home": ("home", "Your house or apartment, at a time that suits you."),
    "Office": ("briefcase", "Your workplace, for a visit that fits between meetings."),
    "Clinic": ("building", "A provider's clinic space, when home or work isn't practical."),
    "Virtual": ("monitor", "A video visit for check-ins and follow-up that need no hands-on care."),
    "Corporate Venue": ("users", "On site at an employer or event, for groups of people at once."),
}


@dataclass(frozen=True)
class ServiceCategory:
    slug: str
    icon: str
    name: str
    tagline: str
    summary: str
    visits: tuple[str, ...]
    preparation: tuple[str, ...]
    locations: tuple[str, ...]
    providers: str
    good_to_know: tuple[str, ...]
    on_sale: bool = False


CATEGORIES: tuple[ServiceCategory, ...] = (
    ServiceCategory(
        slug="phlebotomy",
        icon="droplet",
        name="Mobile Phlebotomy",
        tagline="Lab-ordered blood draws at home or at work.",
        summary=(
            "A trained phlebotomist comes to you, draws the blood your clinician ordered, labels and "
            "packages "
            "the samples, and delivers them to the lab named on your order. Your results go to your "
            "clinician "
            "the same way they would after a draw at a lab."
        ),
        visits=(
            "Routine blood work ordered by your doctor, such as metabolic panels, lipid panels or A1C",
            "Early-morning fasting draws, so you can eat as soon as the visit is done",
            "Repeat draws for ongoing monitoring",
            "Collection with a kit supplied by your lab or insurer",
        ),
        preparation=(
            "Have your lab order, photo ID and, if your lab bills insurance, your insurance card ready.",
            "Some tests, such as fasting glucose or a lipid panel, need 8–12 hours of fasting. Plain water "
            "is fine unless your clinician says otherwise.",
            "Drink water beforehand: being well hydrated makes veins easier to find.",
            "Wear a short-sleeved or loose top.",
            "Tell the provider if you take blood thinners or have felt faint during a blood draw before.",
        ),
        locations=("Home", "Office", "Clinic", "Corporate Venue"),
        providers="Certified phlebotomists, nurses and medical assistants trained in venipuncture.",
        good_to_know=(
            "A lab order from a licensed clinician is required for most blood tests.",
            "Lab fees are usually separate from the visit and are billed by the lab.",
        ),
    ),
    ServiceCategory(
        slug="iv-therapy",
        icon="syringe",
        name="IV Therapy",
        tagline="Hydration and vitamin infusions given by licensed nurses.",
        summary=(
            "A registered nurse reviews your health history, places the IV and stays with you for the whole "
            "infusion. Infusions follow protocols approved by a supervising clinician, as state rules "
            "require."
        ),
        visits=(
            "Hydration after illness, travel, heat or exertion",
            "Vitamin and electrolyte infusions",
            "Several people at one address, each screened separately",
        ),
        preparation=(
            "Eat a light meal and drink water in the hours before your visit: it makes the IV easier to "
            "place "
            "and helps you feel well during the infusion.",
            "Have a list of your medications, allergies and medical conditions ready for the health "
            "screening.",
            "Plan to stay seated for the whole infusion; your nurse will tell you how long yours takes.",
            "Wear clothing that leaves your forearm easy to reach.",
        ),
        locations=("Home", "Office", "Clinic", "Corporate Venue"),
        providers="Registered nurses (RNs) and nurse practitioners (NPs).",
        good_to_know=(
            "IV therapy isn't right for everyone. The nurse may decide not to go ahead if the screening "
            "shows "
            "a risk, for example with some heart or kidney conditions or during pregnancy.",
            "IV therapy is not a treatment for a medical emergency. If you feel seriously unwell, call 911.",
        ),
        on_sale=True,
    ),
    ServiceCategory(
        slug="nursing",
        icon="stethoscope",
        name="In-Home Nursing",
        tagline="Skilled nursing visits after a hospital stay or for ongoing care.",
        summary=(
            "Licensed nurses provide skilled care at home: during recovery after surgery or a hospital stay, "
            "or to help you manage an ongoing condition. Visits follow the care plan or orders from your "
            "clinician."
        ),
        visits=(
            "Wound care and dressing changes",
            "Injections and medication administration",
            "Post-surgical checks",
            "Medication management and teaching for you or your family",
            "Vital signs and check-ins for chronic conditions",
        ),
        preparation=(
            "Have your discharge instructions, care plan or clinician's orders ready.",
            "Keep a current list of medications, including doses and when you take them.",
            "Set up a clean, well-lit space where the nurse can work, ideally near a sink.",
            "Have any supplies your clinician prescribed, such as dressings or medication, on hand.",
        ),
        locations=("Home", "Virtual"),
        providers="Registered nurses (RNs), licensed vocational or practical nurses (LVNs/LPNs) and, for "
        "personal care, certified nursing assistants (CNAs).",
        good_to_know=(
            "Some nursing care needs an order from your clinician; your nurse will tell you if yours does.",
            "Virtual visits are for check-ins and questions only; hands-on care always happens in person.",
        ),
    ),
    ServiceCategory(
        slug="diagnostics",
        icon="flask",
        name="At-Home Diagnostics",
        tagline="Screenings and sample collection without a trip to the clinic.",
        summary=(
            "A provider runs point-of-care screenings or collects samples at your location and sends them to "
            "the lab. Results come back through the lab or the clinician who ordered the test, and a virtual "
            "visit to go over them can be arranged where offered."
        ),
        visits=(
            "Point-of-care screenings, such as blood glucose or blood pressure checks",
            "Swab, urine and other sample collection for lab testing",
            "Tests ordered by your clinician",
            "Health screenings for employees at work",
        ),
        preparation=(
            "Check whether your test needs fasting (8–12 hours for some blood tests) or a first-morning "
            "sample.",
            "Have your lab order, photo ID and insurance card ready if your lab bills insurance.",
            "Follow any instructions for swab tests, such as not eating, drinking or brushing your teeth "
            "beforehand.",
        ),
        locations=("Home", "Office", "Clinic", "Virtual", "Corporate Venue"),
        providers="Medical technicians, nurses and medical assistants; a clinician interprets the results.",
        good_to_know=(
            "A screening is not a diagnosis. Talk to your clinician about what your results mean for you.",
            "Lab fees are usually separate from the visit and are billed by the lab.",
        ),
    ),
)

CATEGORIES_BY_SLUG: dict[str, ServiceCategory] = {category.slug: category for category in CATEGORIES}

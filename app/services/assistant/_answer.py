"""How the assistant answers one message, in this order (anchors: Infermedica triage, NHS 999 / US 911 and
988 guidance, Chatwoot Captain):

1. The red-flag detector (`app.services.safety`): an emergency gets the 911 message, a crisis the 988 one,
   and nothing else is said.
2. Requests for a diagnosis or a dose (and questions whether it gives them) get one fixed, kind refusal
   that points to a clinician.
3. Otherwise it retrieves: the catalog (services, preparation, prices, places of visit), the help center's
   published articles (full-text search, then the best paragraph of each) and, for a service and a ZIP
   code, the provider directory. Each answer carries its source links. When nothing relevant is found it
   says so plainly and offers the support request form and the forum; it never answers from nowhere.

Retrieved text is data, never instructions (issue 27): a sentence in a help-center article or a catalog entry
that addresses an assistant ("ignore previous instructions and say …", "you are now …", "system prompt") is
left out of what is quoted or handed to a language model (`as_data`), and help-center text is quoted and
attributed ("Title" in our help center: “…”), never said in the assistant's own voice.

Relevance is judged on the question's key words (stop words dropped, light stemming, a few synonyms):
a source counts when it shares a specific word with the question in its name or title, or two in its
text; generic words of this site ("visit", "home", "book") alone never make a match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

import zipcodes
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.catalog import list_catalog
from app.services.help_center import plain_snippet
from app.services.help_center.internal import find_help_passages
from app.services.providers import search_providers
from app.services.safety import find_red_flag
from models.assistant import AnswerKind, SourceLink
from models.catalog import CategoryRead, ServiceRead
from models.help_center import HelpArticle, HelpStatus
from models.provider import ProviderQuery

NOT_FOUND = "I couldn't find that in our help center or services."
NOT_FOUND_HINT = (
    "You can ask our support team with a support request, or ask other patients and providers in the forum."
)
REFUSAL = (
    "I'm sorry, I can't diagnose symptoms or recommend medicines or doses: that needs a clinician who knows "
    "your health history. Please ask your doctor, nurse or pharmacist. If you feel very unwell, call 911."
)
SUPPORT_LINK = SourceLink(title="Contact support", url="/dashboard/support?new=1")
FORUM_LINK = SourceLink(title="Ask in the forum", url="/forum")
MAX_PASSAGE = 600  # characters of a help-center paragraph quoted


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_STOP = _set(
    "a about after again all am an and any are as at be been before being but by can could did do does "
    "doing for from get got had has have having he her here hers him his how i if in into is it its just "
    "me might more most my need needs no nor not now of off on once only or other our out over own please "
    "same she should so some such than that the their them then there these they this those through to "
    "too under until up very want was we were what when where which while who whom why will with would "
    "you your yours hi hello hey thanks thank tell know anything something much many way ok okay also "
    "im ill ive id dont cant wont one like go going use using s t whats wheres hows whos thats lets heres "
    "theres youre doesnt isnt arent didnt"
)
# Words this whole site is about: they never make a match on their own.
_GENERIC_WORDS = _set(
    "visit home office medivisit service provider book booking appointment day time help find "
    "work place people person patient new take make"
)
_SYNONYMS = {
    "phlebotomist": ("phlebotomy", "blood", "draw"),
    "phlebotomy": ("blood", "draw"),
    "labs": ("blood", "lab"),
    "bloodwork": ("blood", "draw"),
    "drawn": ("draw",),
    "drip": ("iv", "infusion"),
    "infusion": ("iv",),
    "hydration": ("iv", "fluid"),
    "dehydrated": ("hydration", "iv"),
    "hangover": ("hydration", "iv"),
    "nurse": ("nursing",),
    "shot": ("injection",),
    "wound": ("wound", "dressing"),
    "dressing": ("wound",),
    "surgery": ("surgical",),
    "price": ("price", "cost"),
    "cost": ("price",),
    "fee": ("price", "fee"),
    "pay": ("payment", "pay"),
    "money": ("refund", "payment"),
    "reschedule": ("cancel", "reschedule"),
    "password": ("password", "account"),
    "diabetes": ("glucose", "a1c"),
    "sugar": ("glucose",),
    "cholesterol": ("cholesterol", "heart"),
    "covid": ("swab",),
    "flu": ("swab",),
    "strep": ("swab",),
    "pee": ("urine",),
    "kid": ("child",),
    "kids": ("child",),
    "children": ("child",),
    "son": ("child",),
    "daughter": ("child",),
    "toddler": ("child",),
    "fasting": ("fast",),
    "eat": ("fast", "meal"),
    "food": ("fast", "meal"),
    "employees": ("employee",),
    "staff": ("employee",),
    "vitamins": ("vitamin",),
    "credentials": ("licence", "license", "check"),
    "licensed": ("licence", "license"),
    "vetted": ("check", "license"),
}
_PREPARE = _set("prepare preparation prep ready before fast beforehand bring eat drink")
_PRICE = _set("cost price much expensive charge fee pay")
_WHERE = _set("where location office clinic venue virtual video online")
_LONG = _set("long duration minutes")

_WORD = re.compile(r"[a-z0-9]+")
_ZIP = re.compile(r"\b(\d{5})(?:-\d{4})?\b")
_BOOK = re.compile(r"\b(book|schedule|appointment|near|nearby|available|find (?:a|me) |in my area|come to)")

_DRUGS = (
    r"ibuprofen|advil|motrin|tylenol|acetaminophen|paracetamol|aspirin|aleve|naproxen|benadryl|"
    r"antihistamine|insulin|metformin|antibiotics?|amoxicillin|xanax|valium|melatonin|opioids?|oxycodone|"
    r"codeine|morphine|prednisone|steroids?|nyquil|dayquil|zyrtec|claritin|sudafed|lisinopril|warfarin|"
    r"pills?|tablets?|capsules?|medicines?|medications?|meds|drugs?|vitamin [a-z0-9]+|supplements?"
)
_DOSE = re.compile(
    r"\b(doses?|dosages?|dosing|mg|milligrams?|mcg|ml of)\b|\b\d+ ?(mg|mcg|ml|milligrams?)\b"
    rf"|\bhow (much|many)\b.*\b({_DRUGS})\b"
    rf"|\b(can|should|may|could) i (take|give|mix|double|use|have)\b.*\b({_DRUGS})\b"
    rf"|\bhow often\b.*\b(take|give)\b"
    rf"|\b(safe|ok|okay) to (take|give|mix)\b"
    rf"|\bwhat (medicine|medication|drug|pill|antibiotic)s? (should|can|do)\b"
    rf"|\b(recommend|prescribe|suggest) (a |an |me |some )?({_DRUGS})\b"
)
_DIAGNOSIS = re.compile(
    r"\bdo i have (?!to\b|an? (appointment|visit|booking|account|order|refund)\b)"
    r"|\bwhat(s| is) wrong with (me|my)\b"
    r"|\bdiagnos(e|is|ing)\b"
    r"|\b(is|could|might) (this|it|that|my)( \w+){0,2} (be )?(cancer\w*|serious|an infection|infected|covid|"
    r"the flu|normal|broken|contagious|malignant)\b"
    r"|\bwhat (disease|condition|illness|infection) (do|is|could|might)\b"
    r"|\bam i (sick|ill|pregnant|diabetic|dying)\b"
    r"|\bwhat (does|do) (my|these|this)( \w+){1,3} mean\b"
    r"|\b(interpret|read|explain) my (results?|labs?|blood test|symptoms?)\b"
    r"|\bwhy (do|does|am) (i|my)\b.*\b(hurt|ache|pain|itch|rash|fever|cough|dizzy|tired|swollen|bleed)"
    r"|\bshould i (be worried|worry)\b"
    r"|\bwhat (could|might|would|is) (be )?caus(e|es|ing)\b|\bwhat causes (my|this|these)\b"
    r"|\bwhat is (this|that) (rash|lump|bump|spot|mole|pain|swelling|discharge)\b"
    r"|\bare you (a )?(doctor|nurse|clinician|physician)\b"
    r"|\b(give|offer) (me )?medical advice\b"
)


# A sentence of retrieved text that speaks to an AI instead of to a patient: prompt-injection phrasing.
_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass)\b[^.!?\n]{0,30}?\b(?:previous|prior|above|earlier|"
    r"preceding|all|any|every|your|other|these|those)\b[^.!?\n]{0,30}?\b(?:instructions?|prompts?|rules|"
    r"guidelines|directions|context|messages?|passages?)\b"
    r"|\b(?:ignore|disregard|forget) (?:everything|anything|all)(?: (?:you were told|said))? (?:above|before|so far)\b"
    r"|\b(?:tell|inform|remind|convince) (?:the|every|all|any) (?:users?|patients?|customers?|visitors?|readers?)\b"
    r"|\b(?:system|developer) (?:prompt|message|mode)\b"
    r"|\bnew instructions?\b|\bjailbr(?:eak|oken)\b"
    r"|\byou are (?:now |no longer )?(?:an? |the )?(?:ai|assistant|chatbot|bot|language model|llm|dan)\b"
    r"|\b(?:act|behave|respond) as (?:an? |the )?(?:ai|assistant|chatbot|bot|language model|llm|dan)\b"
    r"|\b(?:as an? (?:ai|assistant|language model)|assistants?|chatbots?|language models?|llms?|ai)\b"
    r"[^.!?\n]{0,40}\b(?:must|should|shall|will|are to) (?:say|answer|reply|respond|tell|output|write|print)\b"
    r"|\b(?:say|answer|reply|respond|output|print|repeat) (?:exactly|verbatim|only)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def as_data(text: str) -> str:
    """Retrieved text without its sentences that give an AI instructions (see the module's docstring)."""
    if not _INSTRUCTION.search(text):
        return text
    return " ".join(part for part in _SENTENCE.split(text) if part.strip() and not _INSTRUCTION.search(part))


def instructs(text: str) -> bool:
    """Whether `text` (a language model's answer, say) contains prompt-injection phrasing."""
    return bool(_INSTRUCTION.search(text))


def _quoted(title: str, paragraph: str) -> str:
    """Help-center words quoted and attributed, so they never read as the assistant's own."""
    return f"\u201c{title}\u201d in our help center: \u201c{paragraph}\u201d"


@dataclass
class Reply:
    """What the assistant says to one message."""

    kind: AnswerKind
    text: str
    sources: list[SourceLink] = field(default_factory=list)
    red_flag: tuple[str, str] | None = None  # (level, category): recorded, never the words
    passages: list[str] = field(default_factory=list)  # what a language model may phrase


def _stem(word: str) -> str:
    """A crude stem: common endings dropped, then the first five letters ("insured", "insurance" → "insur";
    "verified", "verify" → "verif"), so a question and a source meet on word families."""
    for ending, least in (("ing", 6), ("ed", 5), ("ies", 5), ("es", 5), ("s", 4)):
        if len(word) >= least and word.endswith(ending) and not word.endswith("ss"):
            word = word[: -len(ending)] + ("y" if ending == "ies" else "")
            break
    return word[:5]


_GENERIC = frozenset(_stem(word) for word in _GENERIC_WORDS)


def _words(text: str) -> set[str]:
    return {_stem(word) for word in _WORD.findall(text.lower().replace("'", ""))}


def key_words(question: str) -> list[str]:
    """The question's content words, stemmed, with synonyms added, in order and without repeats."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(question.lower().replace("'", "").replace("’", "")):
        if word in _STOP or len(word) < 2 or word.isdigit():
            continue
        for each in (word, *_SYNONYMS.get(word, ())):
            seen.setdefault(_stem(each), None)
    return list(seen)


def asks_for_diagnosis_or_dose(question: str) -> bool:
    """A request for a diagnosis or a dose, or a question whether the assistant gives them."""
    plain = " ".join(_WORD.findall(question.lower().replace("'", "").replace("’", "")))
    return bool(_DOSE.search(plain) or _DIAGNOSIS.search(plain))


@dataclass(frozen=True)
class _Match:
    score: float
    strong: int  # specific key words in the name / title
    weak: int  # specific key words in the text
    generic_head: int  # generic key words in the name / title


def _match(keys: list[str], head: set[str], text: set[str]) -> _Match:
    score = 0.0
    strong = weak = generic_head = 0
    for key in keys:
        generic = key in _GENERIC
        if key in head:
            score += 1.0 if generic else 3.0
            strong += 0 if generic else 1
            generic_head += 1 if generic else 0
        elif key in text:
            score += 0.0 if generic else 1.0
            weak += 0 if generic else 1
    return _Match(score, strong, weak, generic_head)


def _relevant(found: _Match, keys: list[str]) -> bool:
    """A specific key word in the name or title, or two in the text; a question made only of this site's
    generic words ("how do I book a visit?") needs two of them in the name or title."""
    if any(key not in _GENERIC for key in keys):
        return found.strong >= 1 or found.weak >= 2
    return found.generic_head >= 2


def _money(value: Decimal) -> str:
    return f"${value:,.2f}".replace(".00", "")


def _service_text(service: ServiceRead, category: CategoryRead, keys: set[str]) -> tuple[str, str]:
    """The catalog's own words for what was asked (preparation, price, places, length), else all of them;
    and the passage a language model may phrase."""
    places = ", ".join(location.label for location in service.locations)
    price = service.price
    price_line = f"List price: {_money(price.charge)}"
    if price.charge != price.original:
        price_line += f" (was {_money(price.original)}, {price.discount_percent}% off today)"
    price_line += ". Each provider sets their own price."
    parts = {
        "prepare": f"How to prepare: {as_data(service.preparation)}",
        "price": price_line,
        "where": f"Where it can happen: {places}.",
        "long": f"A visit takes about {service.duration_minutes} minutes.",
    }
    wanted = [
        name
        for name, words in (("prepare", _PREPARE), ("price", _PRICE), ("where", _WHERE), ("long", _LONG))
        if keys & {_stem(word) for word in words}
    ]
    chosen = wanted or ["prepare", "price", "where", "long"]
    lines = [
        f"{service.name} ({category.name}): {as_data(service.description)}",
        *(parts[name] for name in chosen),
    ]
    return "\n".join(lines), " ".join(lines)


def _paragraphs(body: str) -> list[str]:
    found = (
        as_data(plain_snippet(part))
        for part in re.split(r"\n\s*\n", body)
        if part.strip() and not part.lstrip().startswith("#")
    )
    return [part for part in found if part.strip()]


def _best_paragraph(body: str, keys: list[str]) -> str:
    paragraphs = _paragraphs(body) or [""]
    best = max(paragraphs, key=lambda part: _match(keys, set(), _words(part)).score)
    if len(best) > MAX_PASSAGE:
        best = best[:MAX_PASSAGE].rsplit(" ", 1)[0] + "…"
    return best


async def _catalog_matches(
    session: AsyncSession, keys: list[str]
) -> list[tuple[_Match, ServiceRead, CategoryRead]]:
    found = []
    for category in await list_catalog(session=session):
        category_words = _words(category.name) | _words(category.slug.replace("-", " "))
        for service in category.services:
            head = _words(service.name) | _words(service.slug.replace("-", " ")) | category_words
            text = _words(f"{service.description} {service.preparation}")
            match = _match(keys, head, text)
            if _relevant(match, keys):
                found.append((match, service, category))
    found.sort(key=lambda item: -item[0].score)
    return found


def _search_words(question: str) -> list[str]:
    """The question's own words for the full-text search (its stemmer, not ours): stop words dropped, and
    this site's generic words too unless nothing else is left."""
    words = [
        word
        for word in _WORD.findall(question.lower().replace("'", "").replace("’", ""))
        if word not in _STOP and len(word) > 1 and not word.isdigit()
    ]
    specific = [word for word in words if _stem(word) not in _GENERIC]
    return list(dict.fromkeys(specific or words))


async def _help_matches(
    session: AsyncSession, question: str, keys: list[str]
) -> list[tuple[_Match, HelpArticle]]:
    words = _search_words(question)
    if not words:
        return []
    hits = await find_help_passages(session=session, query=" ".join(words), limit=5, any_word=True)
    if not hits:
        return []
    rows = (
        await session.scalars(
            select(HelpArticle).where(
                HelpArticle.id.in_([hit.article_id for hit in hits]),
                HelpArticle.status == HelpStatus.published,
            )
        )
    ).all()
    found = []
    for row in rows:
        head = _words(f"{row.title} {row.slug.replace('-', ' ')} {row.summary}")
        match = _match(keys, head, _words(row.body))
        if _relevant(match, keys):
            found.append((match, row))
    found.sort(key=lambda item: -item[0].score)
    return found


async def help_reply(
    *, session: AsyncSession, question: str, base_url: str = ""
) -> tuple[str, list[SourceLink]]:
    """The help center's best passages for `question` with their links, `base_url` before each (the help
    desk's drafts, read in e-mails too); ("", []) when nothing relevant is found."""
    keys = key_words(question)
    articles = await _help_matches(session, question, keys) if keys else []
    top = articles[0][0].score if articles else 0.0
    chosen = [article for match, article in articles[:2] if match.score >= top * 0.6]
    text = "\n\n".join(
        f"{_quoted(article.title, _best_paragraph(article.body, keys))} ({base_url}/help-center/{article.slug})"
        for article in chosen
    )
    return text, [SourceLink(title=a.title, url=f"/help-center/{a.slug}") for a in chosen]


def booking_url(slug: str, zip_code: str | None = None) -> str:
    return f"/find-provider?service={slug}" + (f"&zip={zip_code}" if zip_code else "")


async def _booking_reply(session: AsyncSession, service: ServiceRead, zip_code: str) -> Reply:
    page = await search_providers(
        session=session, query=ProviderQuery(service=service.slug, zip_code=zip_code, per_page=3)
    )
    url = booking_url(service.slug, zip_code)
    if page.total:
        count = f"{page.total}{'+' if page.more else ''}"
        names = ", ".join(card.name for card in page.items[:3])
        text = (
            f"{count} provider{'s' if page.total != 1 else ''} offer {service.name} around {zip_code}"
            f" (for example {names}). Choose a day and a time on the next page."
        )
    else:
        text = (
            f"No provider offers {service.name} around {zip_code} yet. The provider search can show nearby "
            "areas or other services."
        )
    return Reply(
        AnswerKind.booking,
        text,
        [SourceLink(title=f"Book {service.name} near {zip_code}", url=url)],
        passages=[text],
    )


def _zip_in(question: str) -> str | None:
    candidate: str  # what `_ZIP`'s one group matched
    for candidate in _ZIP.findall(question):
        if zipcodes.is_real(candidate):
            return candidate
    return None


async def answer_question(*, session: AsyncSession, question: str, red_flagged: bool = False) -> Reply:
    """The assistant's reply to `question` from the sources (no language model). `red_flagged`: a red flag
    was raised earlier in this conversation, so no booking is offered."""
    flag = find_red_flag(question)
    if flag is not None:
        kind = AnswerKind.crisis if flag.level == "crisis" else AnswerKind.emergency
        return Reply(kind, flag.message, red_flag=(flag.level, flag.category))
    if asks_for_diagnosis_or_dose(question):
        return Reply(AnswerKind.refusal, REFUSAL)

    keys = key_words(question)
    services = await _catalog_matches(session, keys) if keys else []
    articles = await _help_matches(session, question, keys) if keys else []
    key_set = set(keys)

    zip_code = _zip_in(question) if services and not red_flagged else None
    if zip_code is not None:  # a service and a ZIP code: who can come there
        return await _booking_reply(session, services[0][1], zip_code)

    lines: list[str] = []
    passages: list[str] = []
    sources: list[SourceLink] = []
    # The better of the two kinds of source leads; a close second of the other kind follows.
    top_service = services[0][0].score if services else 0.0
    top_article = articles[0][0].score if articles else 0.0
    for match, service, category in services[:2]:
        if match.score < max(top_service, top_article) * 0.6 or (sources and match.score < top_service):
            continue
        text, passage = _service_text(service, category, key_set)
        lines.append(text)
        passages.append(passage)
        sources.append(SourceLink(title=service.name, url=f"/services/{service.slug}"))
    for match, article in articles[:2]:
        if match.score < max(top_service, top_article) * 0.6:
            continue
        paragraph = _best_paragraph(article.body, keys)
        lines.append(_quoted(article.title, paragraph))
        passages.append(f"{article.title}. {as_data(article.summary)} {paragraph}")
        sources.append(SourceLink(title=article.title, url=f"/help-center/{article.slug}"))
    if not sources:
        return Reply(AnswerKind.not_found, f"{NOT_FOUND} {NOT_FOUND_HINT}", [SUPPORT_LINK, FORUM_LINK])
    if services and not red_flagged and _BOOK.search(question.lower()):
        best = services[0][1]
        lines.append(f"Tell me your ZIP code to see who can come, or book {best.name} now.")
        sources.append(SourceLink(title=f"Book {best.name}", url=booking_url(best.slug)))
    return Reply(AnswerKind.answer, "\n\n".join(lines), sources, passages=passages)

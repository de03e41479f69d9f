"""``eval identifiers``: known-item questions that name one thing exactly, on documents this module
writes itself.

Ledgers of invoices, maintenance logs of work orders, a parts catalogue, a contract with numbered
clauses and meeting notes with people's names: long runs of near-identical lines, so that an
embedder sees "a line of a ledger" and only the identifier tells them apart. Each question names
one identifier (or name, or clause number) that occurs on exactly one page, its gold page. The
generator is seeded: the same run writes the same documents and questions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pymupdf

from .pages import PageQuestion

SEED = 20261124
ROWS_PER_PAGE = 24
PAGES_PER_DOCUMENT = 8
QUESTIONS_PER_DOCUMENT = 12
_CUSTOMERS = ["Northwind Traders", "Contoso Ltd", "Fabrikam Inc", "Tailspin Toys", "Litware Inc", "Adatum Corp",
              "Proseware Inc", "Wingtip Supplies", "Alpine Ski House", "Coho Winery"]
_STATUS = ["paid", "overdue", "open", "disputed", "partially paid"]
_ASSETS = ["pump P-3", "chiller C-1", "conveyor line 2", "boiler B-7", "compressor K-4", "forklift F-9"]
_TECHS = ["J. Ortega", "M. Chen", "A. Novak", "S. Patel", "R. Okafor"]
_PARTS = ["hex bolt", "bearing", "gasket", "hydraulic seal", "drive belt", "fuse", "relay", "valve stem"]
_FIRST = ["Priya", "Tomas", "Ingrid", "Kwame", "Lucia", "Haruto", "Amara", "Dmitri", "Sofia", "Rafael", "Nadia",
          "Oskar", "Leila", "Mateo", "Yara", "Emeka", "Freya", "Kenji", "Zainab", "Anton"]
_LAST = ["Raman", "Lindqvist", "Mensah", "Ferreira", "Tanaka", "Okoye", "Volkov", "Moreau", "Castillo", "Haddad",
         "Nakamura", "Brennan", "Achebe", "Sorensen", "Quispe", "Varga", "Whitfield", "Kowalski", "Barros", "Ngata"]
_TOPICS = ["the budget review", "the supplier audit", "the migration plan", "the safety drill", "hiring",
           "the Q3 forecast", "the office move", "the pricing change"]


@dataclass(frozen=True)
class Item:
    """One line of a generated document and the question that names it."""

    text: str
    question: str
    answer: str
    code: str = ""
    """The identifier as the document writes it, for the questions that type it another way."""


Maker = Callable[[random.Random, int, set[str]], Item]


def _unique(rng: random.Random, taken: set[str], make: Callable[[], str]) -> str:
    while (value := make()) in taken:
        pass
    taken.add(value)
    return value


def invoice(rng: random.Random, year: int, taken: set[str]) -> Item:
    number = _unique(rng, taken, lambda: f"INV-{year}-{rng.randint(10000, 99999)}")
    amount = f"{rng.randint(200, 90000):,}.{rng.randint(0, 99):02d}"
    status = rng.choice(_STATUS)
    text = (f"Invoice {number} issued {year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} to "
            f"{rng.choice(_CUSTOMERS)} for USD {amount}; status: {status}.")
    return Item(text, f"What is the status of invoice {number}?", status, number)


def work_order(rng: random.Random, year: int, taken: set[str]) -> Item:
    number = _unique(rng, taken, lambda: f"WO-{rng.randint(100000, 999999)}")
    asset, tech = rng.choice(_ASSETS), rng.choice(_TECHS)
    hours = f"{rng.randint(1, 12)}.{rng.choice([0, 5])}"
    text = (f"Work order {number}: {rng.choice(['inspected', 'repaired', 'replaced filter on', 'lubricated'])} "
            f"{asset}; technician {tech}; {hours} hours; closed {year}-{rng.randint(1, 12):02d}-"
            f"{rng.randint(1, 28):02d}.")
    return Item(text, f"Who was the technician on work order {number}?", tech, number)


def part(rng: random.Random, year: int, taken: set[str]) -> Item:
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    number = _unique(rng, taken, lambda: f"{rng.choice(letters)}{rng.choice(letters)}{rng.randint(1000, 9999)}-"
                                         f"{rng.randint(10, 99)}")
    price = f"{rng.randint(1, 900)}.{rng.randint(0, 99):02d}"
    text = (f"Part {number}, {rng.choice(_PARTS)}, {rng.choice(['steel', 'brass', 'nylon', 'rubber'])}, "
            f"pack of {rng.choice([1, 5, 10, 50])}: EUR {price}.")
    return Item(text, f"How much does part {number} cost?", price, number)


def clause(rng: random.Random, year: int, taken: set[str]) -> Item:
    number = _unique(rng, taken, lambda: f"{rng.randint(1, 40)}.{rng.randint(1, 30)}.{rng.randint(1, 9)}")
    days = rng.choice([10, 14, 30, 45, 60, 90])
    subject = rng.choice(["notice of termination", "payment of disputed amounts", "return of confidential material",
                          "cure of a material breach", "delivery of replacement goods", "written acceptance"])
    text = (f"Clause {number}. The Supplier shall complete the {subject} within {days} days of the Buyer's "
            f"written request, unless the parties agree otherwise in writing.")
    return Item(text, f"What does clause {number} require, and within how many days?", f"{days} days")


def person(rng: random.Random, year: int, taken: set[str]) -> Item:
    name = _unique(rng, taken, lambda: f"{rng.choice(_FIRST)} {rng.choice(_LAST)}")
    task = rng.choice(["draft the proposal", "call the vendor", "update the risk register", "book the venue",
                       "review the contract", "prepare the slides"])
    text = (f"On {rng.choice(_TOPICS)}, {name} agreed to {task} before the next meeting; the others took note and "
            f"moved on to the following item.")
    return Item(text, f"What did {name} agree to do?", task, name)


KINDS: dict[str, tuple[str, Maker]] = {
    "invoices": ("Accounts receivable ledger", invoice),
    "work orders": ("Maintenance log", work_order),
    "part numbers": ("Parts catalogue", part),
    "clauses": ("Master supply agreement", clause),
    "names": ("Minutes of the operations meetings", person),
}


TYPED: dict[str, tuple[str, Callable[[str], list[str]]]] = {
    "invoices": ("invoice", lambda code: [  # INV-2023-48213
        f"invoice {code[4:]}", code.lower(), code.replace("-", " "), f"invoice {code.replace('-', '', 1)}",
        code.lower().replace("-", " "), f"invoice no. {code[4:].replace('-', '/')}", f"INV.{code[4:]}"]),
    "work orders": ("work order", lambda code: [  # WO-779022
        f"work order {code[3:]}", code.lower(), code.replace("-", ""), code.replace("-", " "),
        f"work order #{code[3:]}", f"wo{code[3:]}"]),
    "part numbers": ("part", lambda code: [  # BQ4471-23
        f"part {code.lower().replace('-', ' ')}", code.replace("-", " "), f"part {code.replace('-', '').lower()}",
        f"{code[:2]} {code[2:]}".lower(), f"part no. {code.lower()}"]),
    "names": ("", lambda name: [name.lower(), name.upper()]),  # Priya Raman
}
"""How people type each kind of identifier (the document writes the code as given): case folded,
separators changed, a prefix dropped or glued; a name in lower or upper case."""
TWINS = 3
"""One in this many typed identifiers gets a near-miss twin elsewhere in its document."""


def generate(folder: Path, *, seed: int = SEED, typed: bool = False) -> list[PageQuestion]:
    """Write one PDF per kind into ``folder`` and return the questions, each naming one thing that
    occurs on exactly one page (its gold page). With ``typed``, each invoice, work order, part and
    name is asked a second time the way a person types it (subset '… typed'), and a third of the codes get a
    near-miss twin on another page (two adjacent digits swapped: INV-2023-48213 and INV-2023-48231),
    a page no question's answer may rank below."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    typing = random.Random(seed + 1)  # its own draws: the documents without twins stay the same
    questions: list[PageQuestion] = []
    for kind, (title, make) in KINDS.items():
        year = rng.randint(2019, 2025)
        taken: set[str] = set()
        pages = [[make(rng, year, taken) for _ in range(ROWS_PER_PAGE)] for _ in range(PAGES_PER_DOCUMENT)]
        name = kind.replace(" ", "-") + ".pdf"
        chosen = rng.sample([(n, item) for n, page in enumerate(pages, start=1) for item in page],
                            QUESTIONS_PER_DOCUMENT)
        asked = [PageQuestion(kind, name, item.question, frozenset({n}), (item.answer,)) for n, item in chosen]
        if typed and kind in TYPED:
            asked = _typed(typing, kind, pages, chosen, asked, taken)
        _write_pdf(folder / name, title, [[item.text for item in page] for page in pages])
        questions += asked
    return questions


def _typed(rng: random.Random, kind: str, pages: list[list[Item]], chosen: list[tuple[int, Item]],
           asked: list[PageQuestion], taken: set[str]) -> list[PageQuestion]:
    """The questions of one kind, asked as written and as typed, with twins written into ``pages``."""
    asked_of = {item for _, item in chosen}
    spare = [(n, r) for n, page in enumerate(pages, start=1) for r, item in enumerate(page) if item not in asked_of]
    out = list(asked)
    for number, ((page, item), exact) in enumerate(zip(chosen, asked, strict=True)):
        avoid: frozenset[int] = frozenset()
        twin = _twin(item.code, taken) if number % TWINS == 0 and any(ch.isdigit() for ch in item.code) else None
        elsewhere = [(n, r) for n, r in spare if n != page]
        if twin is not None and elsewhere:
            at = rng.choice(elsewhere)
            spare.remove(at)
            pages[at[0] - 1][at[1]] = Item(item.text.replace(item.code, twin), "", item.answer, twin)
            avoid = frozenset({at[0]})
            out[number] = replace(exact, avoid_pages=avoid)
        noun, forms = TYPED[kind]
        question = item.question.replace(f"{noun} {item.code}".strip(), rng.choice(forms(item.code)))
        out.append(PageQuestion(f"{kind} typed", exact.document, question.lower() if rng.random() < 0.5 else question,
                                exact.gold_pages, exact.answers, avoid))
    return out


def _twin(code: str, taken: set[str]) -> str | None:
    """The code with two adjacent, different digits of its last group swapped, when that code is free."""
    last = max(i for i, ch in enumerate(code) if ch.isdigit())
    start = last
    while start > 0 and code[start - 1].isdigit():
        start -= 1
    for i in range(last - 1, start - 1, -1):
        if code[i] != code[i + 1]:
            twin = code[:i] + code[i + 1] + code[i] + code[i + 2:]
            if twin not in taken:
                taken.add(twin)
                return twin
    return None


def _write_pdf(path: Path, title: str, pages: list[list[str]]) -> None:
    document = pymupdf.open()
    for n, lines in enumerate(pages, start=1):
        page = document.new_page()
        page.insert_text((56, 52), f"{title} — page {n}", fontsize=13, fontname="hebo")
        left = page.insert_textbox(pymupdf.Rect(56, 70, 556, 800), "\n".join(lines), fontsize=8.5, fontname="helv")
        if left < 0:
            raise ValueError(f"{path.name}: page {n}'s lines do not fit on the page")
    tmp = path.with_suffix(".tmp")
    document.save(tmp, no_new_id=True)  # the same bytes each run: a second run into the same folder finds its documents
    document.close()
    tmp.replace(path)

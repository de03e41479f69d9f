"""The hard token budget: a property test over random inputs, and an oversized question."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag_core.answer.budget import fit
from rag_core.answer.prompts import build_messages, render_passage
from rag_core.models import Passage
from rag_core.runtime.tokens import TiktokenCounter
from tests.fakes import WhitespaceTokenCounter

WORDS = st.text(alphabet=st.sampled_from("abcdefg xyz.|\n"), max_size=400)
"""Words, sentences, and lines that read as table rows ('| a | b |'): their cut is another path."""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    chunks=st.lists(WORDS, max_size=30),
    history=st.lists(st.tuples(st.sampled_from(["user", "assistant"]), WORDS), max_size=12),
    question=st.text(alphabet=st.sampled_from("abc de?\n"), min_size=1, max_size=3000),
    limit=st.integers(min_value=900, max_value=4000),
    reserved=st.sampled_from([64, 256, 512]),
    counter=st.sampled_from(["whitespace", "tiktoken"]),
)
def test_budget_never_exceeds_the_limit(
    chunks: list[str], history: list[tuple[str, str]], question: str, limit: int, reserved: int, counter: str
) -> None:
    tokens = WhitespaceTokenCounter() if counter == "whitespace" else TiktokenCounter("gpt-4o-mini", unknown_margin=0.1)
    passages = [Passage(n=i + 1, document="doc.pdf", page=i + 1, text=t) for i, t in enumerate(chunks)]

    def build(q: str, h: list[dict[str, str]], texts: list[str]) -> list[dict[str, str]]:
        given = [p.model_copy(update={"text": t}) for p, t in zip(passages, texts, strict=False)]
        return build_messages("qa", q, given, h)

    result = fit(
        build,  # type: ignore[arg-type]
        lambda i, text: render_passage(passages[i].model_copy(update={"text": text})),
        question,
        [{"role": r, "content": c} for r, c in history],
        chunks,
        tokens,
        limit=limit,
        reserved_output=reserved,
        question_share=0.5,
        history_share=0.35,
    )
    assert result is not None
    assert tokens.count_messages(result.messages) == result.prompt_tokens
    assert result.prompt_tokens + reserved <= limit
    assert result.kept + len(result.cut) == len(chunks)
    assert result.cut == list(range(len(chunks) - len(result.cut), len(chunks))), "only the tail is cut"


def test_a_50000_character_question_is_truncated_to_fit() -> None:
    tokens = TiktokenCounter("gpt-4o-mini", unknown_margin=0.1)
    question = "why " * 12_500

    result = fit(build, block, question, [], ["context " * 50], tokens, limit=10_000,  # type: ignore[arg-type]
                 reserved_output=1024, question_share=0.5, history_share=0.35)
    assert result is not None and result.question_truncated and result.prompt_tokens + 1024 <= 10_000
    assert result.kept == 1




def build(q: str, h: list[dict[str, str]], texts: list[str]) -> list[dict[str, str]]:
    return build_messages("qa", q, [Passage(n=i + 1, document="d", page=1, text=t) for i, t in enumerate(texts)], h)


def block(index: int, text: str) -> str:
    return render_passage(Passage(n=index + 1, document="d", page=1, text=text))


SENTENCES = [" ".join(f"Sentence {n} of passage {i} says the figure was {n * i}." for n in range(40))
             for i in range(12)]


def test_each_passage_is_counted_once_and_the_cut_one_fills_the_room() -> None:
    tokens = TiktokenCounter("gpt-4o-mini", unknown_margin=0.1)
    result = fit(build, block, "What was the figure?", [], SENTENCES, tokens, limit=10_000,  # type: ignore[arg-type]
                 reserved_output=1024, question_share=0.5, history_share=0.35, prompt_cap=1800)
    assert result is not None and result.truncated is not None and result.cut
    assert result.prompt_tokens <= 1800
    assert result.prompt_tokens >= 1800 * 0.9, "the passage cut short takes most of what was left"
    assert result.passages[-1].endswith(" …")
    assert result.tokenizer_calls <= result.kept + 1 + 6, "one count per passage, a few for the cut and the check"


TABLE_THEN_READING = "\n".join([
    "Table 2: Win rates of each variant.",
    "| Metric | Agriculture | CS | Legal | Mix |",
    *(f"| Metric {n} | {n}.1% | {n}.2% | {n}.3% | {n}.4% |" for n in range(60)),
    "The variant without high-level retrieval loses on nearly every dataset and metric.",
    "Without the original text, the variant even wins on Agriculture and Mix.",
])


def test_a_table_is_cut_in_its_rows_and_the_text_after_it_is_kept() -> None:
    tokens = TiktokenCounter("gpt-4o-mini", unknown_margin=0.1)
    common = {"limit": 10_000, "reserved_output": 1024, "question_share": 0.5, "history_share": 0.35}
    result = fit(build, block, "How do the variants perform?", [], [TABLE_THEN_READING, "Later passage."],  # type: ignore[arg-type]
                 tokens, prompt_cap=900, **common)
    assert result is not None and result.truncated == 0 and result.cut == [1] and result.prompt_tokens <= 900
    kept = result.passages[0].splitlines()
    assert kept[:3] == TABLE_THEN_READING.splitlines()[:3], "the caption, the header and the first rows come first"
    assert kept[-3:] == ["…", *TABLE_THEN_READING.splitlines()[-2:]], "the reading of the table is whole after them"
    assert 10 < sum(line.startswith("| Metric ") for line in kept) < 60, "as many rows as the room holds"
    assert result.prompt_tokens >= 900 * 0.9

    again = fit(build, block, "How do the variants perform?", [], [TABLE_THEN_READING], tokens,  # type: ignore[arg-type]
                prompt_cap=result.prompt_tokens - 100, **common)
    assert again is not None and again.passages[0].count("…") == 1 and again.passages[0].endswith("Mix.")


def test_a_table_with_nothing_after_it_keeps_its_first_rows() -> None:
    tokens = TiktokenCounter("gpt-4o-mini", unknown_margin=0.1)
    table = "\n".join(TABLE_THEN_READING.splitlines()[:-2])
    result = fit(build, block, "q", [], [table], tokens, limit=10_000, reserved_output=1024,  # type: ignore[arg-type]
                 question_share=0.5, history_share=0.35, prompt_cap=700)
    assert result is not None and result.passages[0].startswith(table[:200]) and result.passages[0].endswith(" …")


def test_whole_or_nothing() -> None:
    tokens = TiktokenCounter("gpt-4o-mini", unknown_margin=0.1)
    common = {"limit": 10_000, "reserved_output": 1024, "question_share": 0.5, "history_share": 0.35}
    assert fit(build, block, "q", [], SENTENCES, tokens, prompt_cap=1800, whole=True, **common) is None  # type: ignore[arg-type]
    whole = fit(build, block, "q", [], SENTENCES[:2], tokens, prompt_cap=1800, whole=True, **common)  # type: ignore[arg-type]
    assert whole is not None and whole.kept == 2 and whole.truncated is None and not whole.cut


def test_a_long_question_may_pass_the_prompt_cap_but_never_the_limit() -> None:
    tokens = TiktokenCounter("gpt-4o-mini", unknown_margin=0.1)
    question = "Explain the quarterly figures. " * 300  # about 1,800 tokens: more than a cap of 1,000
    result = fit(build, block, question, [], SENTENCES, tokens, limit=10_000,  # type: ignore[arg-type]
                 reserved_output=1024, question_share=0.5, history_share=0.35, prompt_cap=1000)
    assert result is not None and result.kept == 0 and result.cut == list(range(len(SENTENCES)))
    assert result.prompt_tokens > 1000 and result.prompt_tokens + 1024 <= 10_000


def test_a_table_of_blocks_is_cut_in_its_details_and_keeps_every_blocks_total() -> None:
    """The last block's 'Overall' line says more than the first block's details: a cut leaves the
    details out first (last up), and the answer check still reads the rows after the cut as one table."""
    from rag_core.answer.numbers import table_cells
    from rag_core.tables.rows import labelled

    header = "| | Agriculture | | CS | |\n| | NaiveRAG | LightRAG | NaiveRAG | LightRAG |"
    blocks = [("" if b == 1 else f"| | NaiveRAG | -{'HLO'[b - 2]} | NaiveRAG | -{'HLO'[b - 2]} |\n")
              + "\n".join(f"| Metric {m} | {b}{m}.1% | {b}{m}.2% | {b}{m}.3% | {b}{m}.4% |" for m in range(6))
              + f"\n| Overall | {b}9.1% | {b}9.2% | {b}9.3% | {b}9.4% |" for b in range(1, 5)]
    text = "\n".join(["Table 2: variants.", header, *blocks, "Without high-level retrieval the variant loses."])
    tokens = TiktokenCounter("gpt-4o-mini", unknown_margin=0.1)
    result = fit(build, block, "How do the variants perform?", [], [text], tokens, limit=10_000,  # type: ignore[arg-type]
                 reserved_output=1024, question_share=0.5, history_share=0.35, prompt_cap=650)
    assert result is not None and result.truncated == 0
    kept = result.passages[0]
    assert all(f"| Overall | {b}9.1% |" in kept for b in range(1, 5)), "every block's total is kept"
    assert "| Metric 5 | 45.1%" not in kept and kept.endswith("the variant loses."), kept
    assert header in kept, "the header rows that label every row stay"
    last = labelled(kept).splitlines()
    assert "Overall — Agriculture: NaiveRAG 49.1%, -O 49.2%; CS: NaiveRAG 49.3%, -O 49.4%" in last
    cells = [c for c in table_cells([Passage(n=1, document="d.pdf", page=1, text=kept)]) if c.number is not None]
    assert len({c.table for c in cells}) == 1, "the rows around a '…' are one table to the check"
    assert ("Overall", "CS", "-O") in {c.names for c in cells if c.number.text == "49.4%"}


def test_a_comparisons_table_leaves_room_for_the_passages_after_it() -> None:
    """In a comparison one table passage takes at most its share of the room while other passages
    wait: the block of a side keeps its rows longest (its first details and its total here, the
    other blocks' details gone), and the passages after the table are sent too. Another intent
    sends the table first, as long as it fits."""
    from rag_core.answer.budget import fit_prompt
    from rag_core.settings import BudgetSettings

    header = "| | Agriculture | | CS | |\n| | NaiveRAG | LightRAG | NaiveRAG | LightRAG |"
    names = ["NaiveRAG", "HyDE", "GraphRAG"]
    blocks = [("" if b == 0 else f"| | {name} | LightRAG | {name} | LightRAG |\n")
              + "\n".join(f"| Metric {m} | {b}{m}.1% | {b}{m}.2% | {b}{m}.3% | {b}{m}.4% |" for m in range(8))
              + f"\n| Overall | {b}9.1% | {b}9.2% | {b}9.3% | {b}9.4% |" for b, name in enumerate(names)]
    table = "\n".join(["Table 1: win rates.", header, *blocks, "LightRAG wins against every baseline."])
    prose = [" ".join(f"GraphRAG builds communities and LightRAG keys at two levels, point {i}.{n}." for n in range(6))
             for i in range(3)]
    passages = [Passage(n=i + 1, document="p.pdf", page=i + 1, text=text, table_chunks=(0,) if i == 0 else ())
                for i, text in enumerate([table, *prose])]
    tokens = TiktokenCounter("gpt-4o-mini", unknown_margin=0.1)
    config = BudgetSettings()
    compared = fit_prompt("comparison", "compare LightRAG with GraphRAG", [], passages, ["LightRAG", "GraphRAG"],
                          tokens, config, reserved=512, prompt_cap=1100, whole=False)
    assert compared is not None and compared.kept == 4, compared.figures()
    kept = compared.passages[0]
    assert "| Overall | 29.1% |" in kept and "| Metric 0 | 20.1% |" in kept, "the GraphRAG block, first and total"
    assert not any(f"| Metric {m} | {b}{m}.1% |" in kept for b in (0, 1) for m in range(8)), "no other detail"
    assert kept.endswith("every baseline."), kept
    assert compared.passage_tokens[0] <= (1100 - 300) * config.comparison_table_share + 40
    technical = fit_prompt("technical", "compare LightRAG with GraphRAG", [], passages, ["LightRAG", "GraphRAG"],
                           tokens, config, reserved=512, prompt_cap=1100, whole=False)
    assert technical is not None and technical.kept < 4, "another intent: the table first, as it is"


def test_a_table_with_nothing_after_it_keeps_the_row_a_figure_was_read_from() -> None:
    tokens = TiktokenCounter("gpt-4o-mini", unknown_margin=0.1)
    table = "\n".join(TABLE_THEN_READING.splitlines()[:-2])
    common = {"limit": 10_000, "reserved_output": 1024, "question_share": 0.5, "history_share": 0.35, "prompt_cap": 700}
    result = fit(build, block, "q", [], [table], tokens, keep=["Metric 59"], **common)  # type: ignore[arg-type]
    assert result is not None and result.prompt_tokens <= 700
    kept = result.passages[0].splitlines()
    assert "| Metric 59 | 59.1% | 59.2% | 59.3% | 59.4% |" in kept, "the bottom row a figure was read from"
    assert kept[:3] == table.splitlines()[:3], "the caption, the header and the first rows still come first"
    plain = fit(build, block, "q", [], [table], tokens, **common)  # type: ignore[arg-type]
    assert plain is not None and "| Metric 59 |" not in plain.passages[0], "without it, the end is cut"

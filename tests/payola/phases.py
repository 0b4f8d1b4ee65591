"""Random Payola movement phases for the property tests (Hypothesis strategies): offers decoded from
genes that shrink towards a plain direct offer, crowded onto a few units of small boards so that totals
cross and tie often; shared by the reductions' and the outsiders' tests."""

from __future__ import annotations

from hypothesis import strategies as st

from judge.engine.legal import legal_orders
from judge.engine.position import Position
from judge.payola.acceptance import parse_acceptance
from judge.payola.determination import PowerInput
from judge.payola.offers import parse_sheet
from judge.payola.options import Options
from tests.payola.game import LETTERS, START

POWERS = sorted(LETTERS)


def _board(*provinces: str) -> Position:
    return Position(START.game_map, START.phase, {p: START.units[p] for p in provinces}, START.centers)


BOARDS = [
    _board("LON"),  # one fleet, every power bidding on it
    _board("PAR", "MUN"),  # two armies that can both enter BUR
    _board("LON", "EDI", "BRE", "KIE"),  # fleets around the North Sea and the Channel
    _board("VIE", "BUD", "TRI", "VEN", "ROM"),
    START,
]
ORDERS = {id(board): {p: [str(o) for o in legal_orders(board, p)] for p in board.units} for board in BOARDS}

Phase = tuple[Position, dict[str, PowerInput], Options, int]
ACCEPT = [None, "?", "own?", "".join(LETTERS.values()), "".join(reversed(LETTERS.values()))]


def _pick(gene: int, choices: int) -> tuple[int, int]:
    """One choice out of ``choices`` taken from a gene, and the rest of the gene."""
    rest, choice = divmod(gene, choices)
    return choice, rest


def offer(gene: int, board: Position, power: str, provinces: list[str], top: int) -> str:
    """One offer line decoded from a gene (a number that shrinks towards a plain direct offer)."""
    province, gene = _pick(gene, len(provinces))
    orders = ORDERS[id(board)][provinces[province]]
    first, gene = _pick(gene, len(orders))
    named = [orders[first]]
    for _ in range(2):
        alternative, gene = _pick(gene, len(orders) + 2)  # mostly no alternative
        if alternative < len(orders) and orders[alternative] not in named:
            named.append(orders[alternative])
    own = board.units[provinces[province]].power == power
    amount, gene = _pick(gene, top + 1)
    amount = max(amount, 0 if own else 1)
    plateau, gene = _pick(gene, 5)
    repeat, gene = _pick(gene, 5)
    extra, gene = _pick(gene, 5)
    kind, gene = _pick(gene, 7)
    alternatives = "".join(" | " + order.split(" ", 2)[2] for order in named[1:])
    return "".join([
        ["", "2*", "3*", "", ""][repeat], str(amount),
        ["", "#", f"#{amount // 2}", f"#{amount}", ""][plateau],
        ["", " + 1", f" + 2*{top // 3}#1", f" + {top}#{top}", ""][extra],
        " ", ":!>@&::"[kind], " ", named[0], alternatives,
    ])


_GENE = st.integers(0, 2**60)
_POWER = st.tuples(st.lists(_GENE, max_size=5), st.integers(0, 2**20))
_PHASE = st.tuples(
    st.integers(0, len(BOARDS) - 1), st.integers(0, 19), st.lists(st.integers(0, 6), max_size=2),
    st.tuples(*[_POWER] * len(POWERS)), st.integers(0, 99),
)


def _phase(genome: tuple[int, int, list[int], tuple[tuple[list[int], int], ...], int], ebayola: bool | None,
           top: int, boards: list[Position]) -> Phase:
    """A movement phase on a small board: sheets, balances, acceptance lists, dummies, options."""
    board_index, variant, dummy_indices, genes, seed = genome
    board = boards[board_index % len(boards)]
    options = Options(ebayola=variant % 2 == 1 if ebayola is None else ebayola, loyal_units=variant >= 18)
    dummies = {POWERS[i] for i in dummy_indices}
    provinces = sorted(board.units)
    if options.loyal_units:
        provinces = [p for p in provinces if board.units[p].power in dummies] or provinces[:1]
        dummies.add(board.units[provinces[0]].power)
    powers: dict[str, PowerInput] = {}
    for power, (lines, gene) in zip(POWERS, genes, strict=True):
        if power in dummies:
            powers[power] = PowerInput(0, dummy=True)
            continue
        text = [offer(line, board, power, provinces, top) for line in lines]
        savings, gene = _pick(gene, 2 * top + 2)
        if savings:
            text.append(f"{savings - 1} $")
        sheet, errors = parse_sheet("\n".join(text), board, power, options, dummies)
        assert not errors, errors
        accept, gene = _pick(gene, len(ACCEPT))
        written = ACCEPT[accept]
        written = written.replace("own", LETTERS[power]) if written else None
        balance, gene = _pick(gene, 4 * top + 1)
        balance = [0, 0, 1, top, 2 * top][balance] if balance < 5 else balance
        powers[power] = PowerInput(balance, sheet, parse_acceptance(written, LETTERS) if written else None)
    return board, powers, options, seed


def phases(ebayola: bool | None = None, top: int = 12, boards: list[Position] = BOARDS) -> st.SearchStrategy[Phase]:
    """Phases with amounts up to ``top`` (and eBayola or not, or either) on one of ``boards``."""
    return _PHASE.map(lambda genome: _phase(genome, ebayola, top, boards))

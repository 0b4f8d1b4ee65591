"""Ratings benchmark: a simulated community on a fixed seed, its games rated in the order they were
played by the judge's ratings (`judge.service.rating.rate`), by a plain multi-player Elo and by the hall
of fame's win counts; how well each ranks the players' hidden true skills (issue 71, "Show").

Theory of operation.  The community is ``--players`` people (200), each with a hidden true skill drawn
from a standard normal distribution.  ``--games`` games (2,000) of ``--seats`` seats (7) are played one
after another, each game's players drawn at random from the community (seven different people).  A
seat's *performance* in a game is its player's skill plus Gaussian noise of standard deviation
``--noise`` (1.5 skills' spreads); the seats are placed by performance, best first.  A share
``--draws`` of the games (half) ends in a draw instead of a solo: the best 2, 3 or 4 seats (equally
likely) share first place, and the others take the places below them by performance (places 1, 1, 3,
4...).

Why this noise.  One Diplomacy game says little of a player's skill: the power drawn, the neighbours,
who allies with whom and who stabs first weigh more than the player's own play.  A noise of 1.5 makes
one game's performance correlate 1/sqrt(1 + 1.5²) = 0.55 with the skill; the bench prints what that
means in solos (the share of their games the top tenth of the community wins alone, against the
bottom tenth's and everyone's), so a reader can judge whether it is too much luck or too little.
No measurement of Diplomacy games gave these figures (nor the draws'): they are round figures set
before the first run, and were not changed after it; ``--noise`` and ``--draws`` show how far the
numbers move with them.

The four rankings, each fed the games in order:

- *ratings*: `judge.service.rating.rate`, ranked by the figure the judge shows (`Rating.figure`, the
  mean less three uncertainties) and, beside it, by the mean ``mu`` alone;
- *whole history*: a prototype the judge does not use (`whole_history`): every game so far rated at
  once, the maximum a posteriori of the same Bradley-Terry pairwise results (beta 12.5, prior mean 25
  and sigma 25/3), ranked by the same figure; see `whole_history` for the model and the solver;
- *Elo*: every game as all its pairwise results (1 to the better place, 1/2 to a tie, 0 to the
  worse), each player moved by K/(n-1) times the sum over the other n-1 seats of result less
  expectation, K = 32 (the usual K of chess's amateurs), from 1500, the expectations from the
  ratings before the game (so a seven-seat game moves a player at most 32, as one chess game does);
- *wins*: the hall of fame's ranking (`judge.web.fame.hall`): games won alone, then games drawn
  (first place shared), then games played.

A player's *games* are the games they had a part in; the community has played *n games a player*
once the sum of its members' games reaches n times its members, the average, so 10 games a player
is after 286 games of 7 among 200 (each player's own count varies about it, as random draws do: on
the default seed, from 1 to 21 games then, and from 16 to 47 at 30 games a player).  At 10 and 30
games a player, and at the end, the bench prints the Spearman rank correlation of each ranking with
the true skills over the whole community (ties ranked by their mean rank, computed here: no scipy),
and the ratio of the ratings' to Elo's.  The issue's target: at least 0.9 after 30 games a player,
and ahead of Elo.

The same with seats taken over.  In the second run a share ``--takeover`` of the seats (a fifth) is
taken over mid-game: a game has 30 phases, its first player plays the first t of them (t drawn from
1 to 29), a substitute the rest, and the seat's performance is the blend of their skills by those
shares, plus the noise.  To see how a substitute's rating fares, the substitutes are a group of their
own: a fifth of the community are stand-ins, who only ever take seats over (as a judge's list of
stand-ins does), and the games' first players are drawn from the others; so a stand-in's rating is
made of substitutions alone.  A fifth of the first players are the kind who abandon a seat (declared
so by the silence policy: `Share.abandoned`, rated last from the phase they left on); the others
resign it when they leave.  Elo shares a seat's move among its players by their shares (the seat's
expectation from their blend), as the ratings do, and knows no abandonment; the wins go to whoever
finished the seat, as the hall of fame credits the mailbox that finished it.  The bench prints the
same correlations over the community, and then, per group (stand-ins, first players who resign,
first players who abandon), how close the ratings are to the skills: Spearman within the group, and
the mean absolute error and mean error of the standardised rating (over the whole community) against
the standardised skill, for the mean and for the shown figure; the first run's whole community is the
reference for players who play whole games.

The bench also prints what `whole_history` costs over all the run's games (2,000 by default;
``--games 10000`` for a larger community's history): a judge rating so would compute it at every
game's end.

Run: .venv/bin/python bench/ratings_bench.py [--players 200] [--games 2000] [--seats 7] [--noise 1.5]
     [--draws 0.5] [--takeover 0.2] [--seed 71]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from judge.service.rating import NEWCOMER, Rating, Seat, Share, rate

PHASES = 30
"""A simulated game's phases: ten years of spring, fall and winter."""
ELO_K = 32
ELO_START = 1500.0
CHECKPOINTS = (10, 30)
"""Games a player (on average) at which the correlations are printed, besides the end."""
TARGET = 0.9
"""The issue's target for the ratings' Spearman correlation after 30 games a player."""
STANDINS = 0.2
ABANDONERS = 0.2
"""The share of the community who are stand-ins, and of the first players who abandon, in the second run."""


def mean_ranks(keys: Sequence[tuple[float, ...]]) -> list[float]:
    """Each key's rank, 1 for the smallest, tied keys sharing the mean of the ranks they span."""
    order = sorted(range(len(keys)), key=keys.__getitem__)
    ranks = [0.0] * len(keys)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and keys[order[end + 1]] == keys[order[start]]:
            end += 1
        for index in order[start:end + 1]:
            ranks[index] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    """The Pearson correlation of ``xs`` and ``ys``; 0 when either is constant (it says nothing)."""
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else 0.0


def spearman(xs: Sequence[tuple[float, ...]], ys: Sequence[tuple[float, ...]]) -> float:
    """Spearman's rank correlation: the Pearson correlation of the mean ranks (right with ties)."""
    return pearson(mean_ranks(xs), mean_ranks(ys))


@dataclass(frozen=True)
class Community:
    """The players' hidden skills, and in the second run who are stand-ins and who abandon."""

    skills: dict[str, float]
    standins: frozenset[str] = frozenset()
    abandoners: frozenset[str] = frozenset()

    @property
    def people(self) -> list[str]:
        """Everyone, in a fixed order (the order the rankings are compared in)."""
        return list(self.skills)


def community(players: int, rng: random.Random, takeover: float) -> Community:
    """``players`` people with skills from a standard normal; with ``takeover``, a fifth of them stand-ins
    and a fifth of the others abandoners."""
    skills = {f"p{index:04}": rng.gauss(0.0, 1.0) for index in range(players)}
    if not takeover:
        return Community(skills)
    people = list(skills)
    standins = frozenset(rng.sample(people, round(players * STANDINS)))
    starters = [person for person in people if person not in standins]
    return Community(skills, standins, frozenset(rng.sample(starters, round(len(starters) * ABANDONERS))))


def games(world: Community, count: int, seats: int, noise: float, draws: float, takeover: float,
          rng: random.Random) -> Iterator[tuple[Seat, ...]]:
    """The community's games in the order played (see the module's header), as the ratings take them."""
    starters = [person for person in world.people if person not in world.standins]
    standins = sorted(world.standins)
    for _ in range(count):
        players = rng.sample(starters, seats)
        taken = [rng.random() < takeover for _ in players]
        subs = iter(rng.sample(standins, sum(taken)))
        shares: list[tuple[Share, ...]] = []
        performance: list[float] = []
        for player, over in zip(players, taken, strict=True):
            if over:
                left, sub = rng.randint(1, PHASES - 1), next(subs)
                gone = player in world.abandoners
                shares.append((Share(player, left, gone, (PHASES - left) / PHASES if gone else 0.0),
                               Share(sub, PHASES - left)))
                skill = (left * world.skills[player] + (PHASES - left) * world.skills[sub]) / PHASES
            else:
                shares.append((Share(player, PHASES),))
                skill = world.skills[player]
            performance.append(skill + rng.gauss(0.0, noise))
        order = sorted(range(seats), key=lambda index: -performance[index])
        drawn = rng.randint(2, min(4, seats)) if rng.random() < draws else 1
        places = {index: 1 if at < drawn else at + 1 for at, index in enumerate(order)}
        yield tuple(Seat(f"s{index}", places[index], shares[index]) for index in range(seats))


def weights(seat: Seat) -> list[tuple[str, float]]:
    """Each player of ``seat`` with their share of its phases."""
    total = sum(share.phases for share in seat.players)
    return [(share.person, share.phases / total) for share in seat.players]


@dataclass
class Ratings:
    """The judge's ratings, fed game after game."""

    known: dict[str, Rating] = field(default_factory=dict)

    def play(self, seats: Sequence[Seat]) -> None:
        """The game rated, as the judge rates a finished game."""
        self.known.update(rate(self.known, seats))

    def figure(self, person: str) -> tuple[float, ...]:
        """What ranks ``person``: the figure the judge shows."""
        return (self.known.get(person, NEWCOMER).figure,)

    def mu(self, person: str) -> tuple[float, ...]:
        """The mean alone, without the uncertainty the figure takes off."""
        return (self.known.get(person, NEWCOMER).mu,)


PRIOR_MU = 25.0
PRIOR_SIGMA = 25 / 3
SCALE = math.sqrt(2) * 12.5
"""The whole history's prior (a newcomer's openskill rating) and the logistic scale of a pairwise result,
``sqrt(2 beta²)`` with the judge's beta 12.5 (openskill's ``c`` without the uncertainties)."""
TOLERANCE = 1e-6
"""The whole history's solver stops when no mean moved more than this in a sweep."""


def whole_history(played: Sequence[Sequence[Seat]]) -> dict[str, Rating]:
    """Every person's rating from all of ``played`` at once: the maximum a posteriori estimate.

    Theory of operation.  Every game is its 21 pairwise results (for seven seats), as the judge's
    Bradley-Terry with full pairing reads it: seat a above seat b has likelihood ``1 / (1 + exp(-(s_a -
    s_b) / SCALE))``, a tie the square root of both ways, where a seat's strength ``s`` is the blend of its
    players' means by their shares of its phases; so a stand-in's mean is estimated together with the
    first player's, which the first player's other games pin down.  A player who abandoned a seat is also,
    for the share of the game after they left (`Share.after`), themselves alone below every other seat.
    Each mean has a Gaussian prior (25, 25/3), so a newcomer is at 25 and the estimate is unique (the
    log-posterior is strictly concave).  It is solved by Newton's method one person at a time (Gauss-Seidel
    sweeps) with, after each sweep, the exact step that moves everyone by the same amount (the results are
    blind to it and only the prior fixes it: without it the sweeps crawl).  A person's ``sigma`` is the
    Laplace approximation's from the diagonal of the Hessian at the estimate, ``1 / sqrt(-H_kk)``: the
    uncertainty were everyone else's mean known; the diagonal of the inverse Hessian (the true Laplace
    marginal, somewhat larger) needs the whole matrix inverted, which plain Python cannot afford for
    thousands of people.  The order of the games does not matter.
    """
    games_of: dict[str, int] = {}
    entries: list[list[tuple[str, float]]] = []
    pairs: list[tuple[int, int, float, float]] = []
    for seats in played:
        if len(seats) < 2:
            continue
        base = len(entries)
        for seat in seats:
            entries.append(weights(seat))
            for person, _ in weights(seat):
                games_of[person] = games_of.get(person, 0) + 1
        pairs.extend((base + i, base + j, 1.0 if a.place < b.place else 0.5 if a.place == b.place else 0.0, 1.0)
                     for i, a in enumerate(seats) for j, b in enumerate(seats) if i < j)
        for at, seat in enumerate(seats):
            for share in seat.players:
                if share.abandoned and share.after:
                    entries.append([(share.person, 1.0)])
                    pairs.extend((len(entries) - 1, base + j, 0.0, share.after) for j in range(len(seats)) if j != at)
    people = sorted(games_of)
    index = {person: k for k, person in enumerate(people)}
    touches: list[dict[int, float]] = [{} for _ in people]
    for number, (a, b, _, _) in enumerate(pairs):
        for entry, sign in ((a, 1.0), (b, -1.0)):
            for person, weight in entries[entry]:
                touch = touches[index[person]]
                touch[number] = touch.get(number, 0.0) + sign * weight
    mu = [PRIOR_MU] * len(people)
    gap = [0.0] * len(pairs)
    prior = PRIOR_SIGMA ** -2

    def slopes(k: int) -> tuple[float, float]:
        """The log-posterior's first derivative in person ``k``'s mean, and minus its second."""
        first, second = -(mu[k] - PRIOR_MU) * prior, prior
        for number, coefficient in touches[k].items():
            _, _, result, weight = pairs[number]
            p = 1 / (1 + math.exp(-gap[number] / SCALE))
            first += weight * coefficient * (result - p) / SCALE
            second += weight * coefficient ** 2 * p * (1 - p) / SCALE ** 2
        return first, second

    moved = math.inf
    while moved > TOLERANCE:
        moved = 0.0
        for k in range(len(people)):
            first, second = slopes(k)
            step = first / second
            mu[k] += step
            for number, coefficient in touches[k].items():
                gap[number] += coefficient * step
            moved = max(moved, abs(step))
        shift = PRIOR_MU - sum(mu) / len(mu) if mu else 0.0
        mu = [each + shift for each in mu]
        moved = max(moved, abs(shift))
    return {person: Rating(mu[k], slopes(k)[1] ** -0.5, games_of[person]) for k, person in enumerate(people)}


@dataclass
class WholeHistory:
    """The whole-history prototype: the games kept, all of them rated again when asked."""

    played: list[Sequence[Seat]] = field(default_factory=list)
    known: dict[str, Rating] = field(default_factory=dict)

    def play(self, seats: Sequence[Seat]) -> None:
        """The game kept; the ratings are computed at a checkpoint (`rate`)."""
        self.played.append(seats)

    def rate(self) -> None:
        """Every game kept rated at once."""
        self.known = whole_history(self.played)

    def figure(self, person: str) -> tuple[float, ...]:
        """What ranks ``person``: the figure the judge would show."""
        return (self.known.get(person, NEWCOMER).figure,)

    def mu(self, person: str) -> tuple[float, ...]:
        """The mean alone."""
        return (self.known.get(person, NEWCOMER).mu,)


@dataclass
class Elo:
    """A plain multi-player Elo (see the module's header): all pairwise results, K/(n-1) each."""

    known: dict[str, float] = field(default_factory=dict)

    def play(self, seats: Sequence[Seat]) -> None:
        """Every seat moved from the ratings before the game; a shared seat's move split by shares."""
        blends = [sum(weight * self.known.get(person, ELO_START) for person, weight in weights(seat))
                  for seat in seats]
        for at, seat in enumerate(seats):
            move = ELO_K / (len(seats) - 1) * sum(
                (1.0 if seat.place < other.place else 0.5 if seat.place == other.place else 0.0)
                - 1 / (1 + 10 ** ((blends[index] - blends[at]) / 400))
                for index, other in enumerate(seats) if index != at)
            for person, weight in weights(seat):
                self.known[person] = self.known.get(person, ELO_START) + weight * move

    def score(self, person: str) -> tuple[float, ...]:
        """What ranks ``person``: their Elo."""
        return (self.known.get(person, ELO_START),)


@dataclass
class Wins:
    """The hall of fame's counts: games won alone, drawn, played, credited to who finished the seat."""

    known: dict[str, tuple[int, int, int]] = field(default_factory=dict)

    def play(self, seats: Sequence[Seat]) -> None:
        """A solo is a win, a shared first place a draw; every seat's finisher played one more."""
        firsts = sum(seat.place == 1 for seat in seats)
        for seat in seats:
            person = seat.players[-1].person
            won, drawn, played = self.known.get(person, (0, 0, 0))
            self.known[person] = (won + (seat.place == 1 and firsts == 1),
                                  drawn + (seat.place == 1 and firsts > 1), played + 1)

    def score(self, person: str) -> tuple[float, ...]:
        """What ranks ``person``: won, then drawn, then played, as the hall of fame ranks."""
        return self.known.get(person, (0, 0, 0))


@dataclass(frozen=True)
class Row:
    """The correlations with the skills once the community has played ``per_player`` games a player."""

    per_player: float
    games: int
    figure: float
    mu: float
    whole: float
    elo: float
    wins: float


@dataclass(frozen=True)
class Group:
    """How close a group's ratings are to their skills (see the module's header)."""

    name: str
    people: int
    games: float
    spearman: float
    mae_mu: float
    bias_mu: float
    mae_figure: float
    bias_figure: float


@dataclass(frozen=True)
class Run:
    """One run's rows, its groups, and the solos of the community's top and bottom tenths."""

    rows: list[Row]
    groups: list[Group]
    whole_groups: list[Group]
    solos: tuple[float, float, float]
    cost: float


def standardised(values: dict[str, float]) -> dict[str, float]:
    """``values`` less their mean, over their standard deviation."""
    mean = sum(values.values()) / len(values)
    spread = math.sqrt(sum((value - mean) ** 2 for value in values.values()) / len(values)) or 1.0
    return {person: (value - mean) / spread for person, value in values.items()}


def group(name: str, people: Sequence[str], world: Community, ratings: Ratings | WholeHistory) -> Group:
    """The ``people``'s closeness to their skills, standardised over the whole community."""
    skill = standardised(world.skills)
    mu = standardised({person: ratings.mu(person)[0] for person in world.people})
    figure = standardised({person: ratings.figure(person)[0] for person in world.people})
    count = len(people) or 1
    return Group(name, len(people), sum(ratings.known.get(p, NEWCOMER).games for p in people) / count,
                 spearman([(figure[p],) for p in people],
                          [(skill[p],) for p in people]),
                 sum(abs(mu[p] - skill[p]) for p in people) / count, sum(mu[p] - skill[p] for p in people) / count,
                 sum(abs(figure[p] - skill[p]) for p in people) / count,
                 sum(figure[p] - skill[p] for p in people) / count)


def run(players: int, count: int, seats: int, noise: float, draws: float, takeover: float, seed: int) -> Run:
    """The community's games rated three ways, the correlations at each checkpoint and at the end."""
    rng = random.Random(seed)
    world = community(players, rng, takeover)
    ratings, whole, elo, wins = Ratings(), WholeHistory(), Elo(), Wins()
    skills = [(world.skills[person],) for person in world.people]
    rows: list[Row] = []
    checkpoints = [per * players for per in CHECKPOINTS]
    played = 0
    solos: dict[str, list[int]] = {person: [0, 0] for person in world.people}
    for number, game in enumerate(games(world, count, seats, noise, draws, takeover, rng), start=1):
        for rater in (ratings, whole, elo, wins):
            rater.play(game)
        firsts = sum(seat.place == 1 for seat in game)
        for seat in game:
            for share in seat.players:
                solos[share.person][0] += firsts == 1 and seat.place == 1
                solos[share.person][1] += 1
        played += sum(len(seat.players) for seat in game)
        if number == count or (checkpoints and played >= checkpoints[0]):
            while checkpoints and played >= checkpoints[0]:
                checkpoints.pop(0)
            started = time.perf_counter()
            whole.rate()
            cost = time.perf_counter() - started
            rows.append(Row(played / players, number, *(
                spearman([score(person) for person in world.people], skills)
                for score in (ratings.figure, ratings.mu, whole.figure, elo.score, wins.score))))
    by_skill = sorted(world.people, key=world.skills.__getitem__)
    tenth = max(1, players // 10)

    def solo_share(people: Sequence[str]) -> float:
        return sum(solos[p][0] for p in people) / (sum(solos[p][1] for p in people) or 1)

    def groups(rater: Ratings | WholeHistory) -> list[Group]:
        if not takeover:
            return [group("everyone (whole games)", world.people, world, rater)]
        starters = [p for p in world.people if p not in world.standins]
        return [group("stand-ins (substitutions alone)", sorted(world.standins), world, rater),
                group("first players who resign", [p for p in starters if p not in world.abandoners], world, rater),
                group("first players who abandon", sorted(world.abandoners), world, rater)]

    return Run(rows, groups(ratings), groups(whole), (solo_share(by_skill[-tenth:]), solo_share(by_skill[:tenth]),
                                                      solo_share(world.people)), cost)


def report(title: str, result: Run) -> list[str]:
    """The run's table, its target line and its groups, as printed."""
    top, bottom, everyone = result.solos
    lines = [title, f"  solos: the top tenth win alone {top:.1%} of their games, the bottom tenth {bottom:.1%}, "
                    f"everyone {everyone:.1%}",
             f"  {'games a player':>14} {'games':>6} {'ratings':>8} {'(mu)':>6} {'whole':>6} {'Elo':>6} {'wins':>6} "
             f"{'ratings/Elo':>11} {'whole/Elo':>9}"]
    for row in result.rows:
        ratio = f"{row.figure / row.elo:.3f}" if row.elo else "-"
        whole = f"{row.whole / row.elo:.3f}" if row.elo else "-"
        lines.append(f"  {row.per_player:>14.1f} {row.games:>6} {row.figure:>8.3f} {row.mu:>6.3f} {row.whole:>6.3f} "
                     f"{row.elo:>6.3f} {row.wins:>6.3f} {ratio:>11} {whole:>9}")
    at30 = next((row for row in result.rows if row.per_player >= CHECKPOINTS[-1]), None)
    if at30 is None:
        lines.append(f"  target: the community never reached {CHECKPOINTS[-1]} games a player")
    else:
        lines.append(f"  target after {CHECKPOINTS[-1]} games a player: ratings {at30.figure:.3f} >= {TARGET}: "
                     f"{'met' if at30.figure >= TARGET else 'NOT met'}; ahead of Elo ({at30.elo:.3f}): "
                     f"{'met' if at30.figure > at30.elo else 'NOT met'}")
        lines.append(f"  the whole history after {CHECKPOINTS[-1]} games a player: {at30.whole:.3f} >= {TARGET}: "
                     f"{'met' if at30.whole >= TARGET else 'NOT met'}; ahead of Elo ({at30.elo:.3f}): "
                     f"{'met' if at30.whole > at30.elo else 'NOT met'}")
    lines.append(f"  {'at the end':<49} {'people':>6} {'games':>6} {'Spearman':>8} {'MAE mu':>7} {'bias':>6} "
                 f"{'MAE fig':>7} {'bias':>6}")
    for label, groups in (("ratings", result.groups), ("whole history", result.whole_groups)):
        for each in groups:
            lines.append(f"  {label + ': ' + each.name:<49} {each.people:>6} {each.games:>6.1f} {each.spearman:>8.3f} "
                         f"{each.mae_mu:>7.3f} {each.bias_mu:>+6.2f} {each.mae_figure:>7.3f} {each.bias_figure:>+6.2f}")
    lines.append(f"  the whole history of all {result.rows[-1].games} games rated at once in {result.cost:.2f} s")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seats", type=int, default=7)
    parser.add_argument("--noise", type=float, default=1.5, help="a seat's noise, in skills' spreads (default 1.5)")
    parser.add_argument("--draws", type=float, default=0.5, help="the share of games drawn (default 0.5)")
    parser.add_argument("--takeover", type=float, default=0.2, help="seats taken over in the second run (default 0.2)")
    parser.add_argument("--seed", type=int, default=71)
    args = parser.parse_args(argv)
    print(f"Ratings: {args.players} players, {args.games} games of {args.seats}, noise {args.noise:g} "
          f"(one game's performance correlates {1 / math.sqrt(1 + args.noise ** 2):.2f} with skill), "
          f"draws {args.draws:g}, seed {args.seed}; Spearman with the true skills")
    for title, takeover in (("Whole games", 0.0),
                            (f"{args.takeover:.0%} of seats taken over mid-game", args.takeover)):
        result = run(args.players, args.games, args.seats, args.noise, args.draws, takeover, args.seed)
        for line in report(title, result):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

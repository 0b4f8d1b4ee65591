"""Pirates' Proposal's script for ``judge demo --pirates`` (`judge.service.operators.demo` runs the judge).

Four players (Ann, Bob, Cy, Dee) join a match of four with one garnet each, and the game master
starts it.  In the first round each player reads their room and package from their mail, as a
real player would, and plans: half the package to themselves, the rest shared among their room
mates, Ann spending her garnet; then each votes Yes on the plan of the first of their room by
name and No on the others, but for one player who sends nothing (a ballot is drawn for them).
The game master closes these two phases with PROCESS instead of waiting out their 24 hours, and
so the four other rounds, a phase at a time, with nothing sent (default plans, drawn ballots): no
phase may be set to last less than an hour, and the demo's judge lets its game master change
phases more often than a judge's limit an hour (`judge.service.operators.demo`).  The richest player, if
one is, gives the extra Token of Life.  Shown: Ann's mails (the start, her answer, the plans of
her room, the outcome) and the end publication every player receives."""

from __future__ import annotations

import re
from email.message import EmailMessage

from judge.api import DemoJudge, show, text_of

GM = "gm@example.org"
NAMES = ("Ann", "Bob", "Cy", "Dee")


def _address(name: str) -> str:
    return f"{name.lower()}@example.org"


def _signed(name: str, *lines: str) -> str:
    return "\n".join((f"SIGNON {name}@demo pw-{name.lower()}", *lines))


def _master(judge: DemoJudge, *lines: str) -> None:
    judge.send(GM, "\n".join(("SIGNON MASTER@demo gm-secret", *lines)))


def _told(mail: EmailMessage, label: str) -> str:
    """What the line ``label: ...`` of a mail says."""
    found = re.search(rf"^{label}: (.*)$", text_of(mail), re.M)
    assert found is not None, f"no '{label}:' line in {mail['Subject']}"
    return found.group(1).strip()


def _plan(name: str, start: EmailMessage) -> list[str]:
    """Half the package to oneself, the rest shared among one's room mates (the remainder to
    oneself); Ann spends her garnet, which adds 5 gold to share."""
    room = [member for member in _told(start, "Room").split(", ") if member != name]
    package = int(_told(start, "Package").split()[0]) + (5 if name == "Ann" else 0)
    each = (package // 2) // len(room) if room else 0
    shares = " ".join(f"{member} {each}" for member in room)
    plan = [f"PLAN ME {package - each * len(room)} {shares}".rstrip()]
    return [*plan, "GARNETS 1"] if name == "Ann" else plan


def _ballot(name: str, start: EmailMessage) -> str:
    """Yes on the plan of the first of one's room by name, No on the others (balanced in a room
    of two)."""
    room = _told(start, "Room").split(", ")
    words = ["ME" if member == name else member for member in room]
    return f"VOTE YES {words[0]} NO {' '.join(words[1:])}"


def play(judge: DemoJudge) -> None:
    """The script, against ``judge``, printing as it goes."""
    judge.send(GM, "CREATE demo gm-secret pirates PLAYERS=4 GARNETS=1")
    judge.confirm(GM)
    for name in NAMES:
        judge.send(_address(name), f"JOIN demo pw-{name.lower()} {name}")
    for name in NAMES:
        judge.confirm(_address(name))
    _master(judge, "START")
    starts = {name: judge.wait_for("demo starts", _address(name)) for name in NAMES}
    print("Four players joined a match of Pirates' Proposal by mail, each under a name of their own;\n"
          "the game master started it and the rooms were drawn. Ann's mail:\n")
    show(starts["Ann"])

    print("\nEach player reads their room and package and sends a plan. Ann's, and the judge's answer:\n")
    for name in NAMES:
        lines = _plan(name, starts[name])
        answer = judge.answer(_address(name), _signed(name, *lines))
        if name == "Ann":
            print("    " + "\n    ".join(lines) + "\n")
            show(answer)
    _master(judge, "PROCESS")
    voting = judge.wait_for("demo D1 results", _address("Ann"))
    print("\nThe game master closed the Distribution Phase with PROCESS (a phase never closes early by\n"
          "itself: that would tell everyone that all had sent their plans). Ann is told what she would\n"
          "receive under each plan of her room, and of no other room:\n")
    show(voting)

    silent = NAMES[-1]
    for name in NAMES:
        if name != silent:
            judge.answer(_address(name), _signed(name, _ballot(name, starts[name])))
    _master(judge, "PROCESS")
    print(f"\nEveryone voted but {silent}, for whom a balanced ballot was drawn at random; the game master\n"
          "closed the Voting Phase. Ann learns which plans of her room passed, her gold, and the next round:\n")
    show(judge.wait_for("demo V1 results", _address("Ann")))
    for number in range(2, 6):
        for phase in (f"D{number}", f"V{number}"):
            _master(judge, f"PROCESS {phase}")
            judge.wait_for(f"demo {phase} results", _address("Ann"))
    print("\nThe game master closed the four other rounds with PROCESS, one phase after the other, nobody\n"
          "sending anything: each plan was the default plan (the package shared evenly among the\n"
          "proposer's room mates) and each ballot was drawn.")
    results = [judge.wait_for("demo V5 results", _address(name), timeout=120) for name in NAMES]
    holder = next((name for name, mail in zip(NAMES, results, strict=True)
                   if "You have more gold than any other player" in text_of(mail)), None)
    if holder is not None:
        given = next(name for name in NAMES if name != holder)
        judge.answer(_address(holder), _signed(holder, f"GIVE TOKEN {given}"))
        _master(judge, "PROCESS")
        print(f"{holder}, richer than every other player, gave the extra Token of Life to {given}.")
    end = judge.wait_for("demo has ended", _address("Ann"))
    print("\nThe match is over. Every player, the game master and any observer receive the same\n"
          "publication: every room, package, plan and ballot of every round, then the end:\n")
    show(end)
    print()

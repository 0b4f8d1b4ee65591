"""What the phases did, each result with its reason: one :class:`Reason` per rule — the Action
phase's results here, the economy's in :mod:`~.ledger` and :mod:`~.campaign`.

A reason's value is the sentence a judge would write, with the AoP chapter and the ruling it
applies, so that each printed result can be checked against the rules text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from judge.games.machiavelli.core.orders import Order
from judge.games.machiavelli.core.position import Owner, Place, Position, Unit


def _(message: str) -> str:
    """Mark ``message`` for the kind's catalogue and keep it as it is: a reason is written in its
    reader's language where a statement is (`judge.games.machiavelli.views.said`), never here."""
    return message


class Reason(Enum):
    """Why an order did what it did."""

    # -- orders that are not carried out as written: the unit holds instead (AoP 8.2) -------------
    NO_ORDER = _("no order was given: the unit holds (9.2, M50)")
    SEVERAL_ORDERS = _("several different orders were given to the unit: unclear, it holds (17.1, 8.2)")
    NOT_OWNER = _("the order is for a unit its writer does not command after phase D: ignored (8.2, M50)")
    NO_SUCH_UNIT = _("no such unit stands there: the order is ignored (8.2)")
    NO_UNIT_NAMED = _("the unit the support or transport names does not stand there: it holds (8.2, 9.5, 9.6)")
    ASSASSINATED = _("its leader was assassinated: every unit holds, and may be supported; its orders are not "
                    "disclosed (10, M20, M61)")
    INDEPENDENT = _("an independent unit holds unless bribed to operate (16, M33)")
    INDEPENDENT_MAY_NOT_ADVANCE = _("an independent unit cannot leave its native area: it holds (12, 16, M33)")
    BRIBED_BESIEGER = _("besieger and besieged are no longer enemies since a bribe: the besieger holds (9.4, M39)")
    SIEGE_SECOND_SEASON = _("in a siege's second season the besieger may only besiege or hold: it holds (9.4)")
    WRONG_UNIT = _("this kind of unit cannot carry out this order: it holds (9.1)")
    NOT_ADJACENT = _("the unit cannot reach that area: it holds (9.3)")
    COAST_UNCLEAR = _("the coast of the province is not named and both are reachable: it holds (9.3, 17.1)")
    NO_SUCH_COAST = _("the unit cannot reach that coast: it holds (9.3)")
    BAD_ROUTE = _("the route is not a chain of fleets each able to advance into the next area: it holds (9.3, M24)")
    ISLAND_GARRISONED = _("Venice holds only a garrison, which only a siege takes: the advance is void (14, M57)")
    ISLAND_REBELLING = _("a rebellion against the unit's owner fills the one-unit island: it holds (1.3, 11.2, M15)")
    ISLAND_FOR_FLEETS = _("the island holds a fleet or a rebellion, never an army: the army holds (1.3, M15)")
    STRAIT_CLOSED = _("the strait's controller gave no permission: the unit holds, attacking nothing (9.3, M17, M55)")
    SUPPORT_OUT_OF_REACH = _("a unit supports only into an area it could advance or convert into: it holds (9.5, M18)")
    GARRISON_SUPPORTS_OWN_PROVINCE = _("a garrison supports only into its own province: it holds (9.5, M19)")
    VICTIM_MAY_NOT_SUPPORT = _("the victim's army or fleet in a rebelling province cannot support: it holds (11.2)")
    LAGOON_CLOSED = _("another player's fleet in the Lagoon stops support across it: it holds (14, M14)")
    NOTHING_TO_BESIEGE = _("no enemy garrison or rebelling fortified city to besiege here: it holds (9.4)")
    FLEET_BESIEGES_PORT_ONLY = _("a fleet may besiege only a port city: it holds (9.4)")
    NO_FORTIFIED_CITY = _("conversion needs a fortified city in the province: it holds (9.7)")
    NOT_A_PORT = _("a fleet converts to or from a garrison only in a port city: it holds (9.7)")
    CITY_OCCUPIED = _("the city already holds a garrison: the conversion is impossible, it holds (1.3, 9.7, M23)")
    CITY_REBELLING = _("the city is rebelling: nobody converts into it, it holds (11.2, M23)")
    FRIENDLY_CONFLICT = _("friendly units may not attack or support attacks against each other: it holds (13.4, M26)")
    # -- outcomes of the operations carried out -----------------------------------------------------
    HELD = _("held (9.2)")
    REBELLION_PUT_DOWN = _("held as ordered in its rebelling province and put the rebellion down (11.3, M45)")
    ADVANCED = _("advanced: stronger than the defence and every other attack on the area (9.3, 13.2, 13.4)")
    BOUNCED = _("did not advance: not stronger than the defence or another attack on the area (13.2, 13.3)")
    TRANSPORT_FAILED = _("the transport failed (a fleet missing its Transport order, or forced to retreat) (9.3, M24)")
    TRANSPORT_AMBIGUOUS = _("a fleet may transport one army a campaign; two were routed through it (9.6, M24)")
    CONVOY_PARADOX = _("a paradox involving a transport: the transported army holds (M24, Szykman rule)")
    CYCLE_STANDOFF = _("a cyclic conflict without one clear outcome is a standoff: supports cut, "
                       "units stay (13.6, M27)")
    DEFENDER_MADE_GARRISON = _("superior from the Lagoon: the unit in Venice is made a garrison, the "
                               "attacker stays (14)")
    CONVERTED = _("converted (9.7)")
    CONVERSION_BOUNCED = _("did not convert: not stronger than the defence or an attack on the province (9.7, 13)")
    CONVERTED_THEN_DISLODGED = _("converted, then forced to retreat by a superior attack on the province (13.5, M43)")
    SUPPORT_GIVEN = _("support given (9.5, 13.1)")
    SUPPORT_CUT = _("support cut by an attack not coming from the supported area (13.1, M25)")
    SUPPORTER_DISLODGED = _("the supporter was forced to retreat and gave no support (13.1)")
    NOTHING_TO_SUPPORT = _("no unit of that player operated towards the area: the support had "
                           "nothing to add (9.5, M18)")
    TRANSPORTED = _("transported the army (9.6)")
    NOTHING_TRANSPORTED = _("no army of that player was transported through this fleet (9.6)")
    TRANSPORT_BROKEN = _("forced to retreat: the transport through this fleet failed (9.3)")
    BESIEGED = _("besieged the city: first successful season (9.4, M22)")
    SIEGE_COMPLETED = _("second consecutive successful season: the garrison is destroyed, the city taken (9.4, M22)")
    SIEGE_BROKEN = _("the siege was not carried out this season, and must start again (9.4, M22)")
    DISLODGED = _("forced to retreat by a superior attack; its order is cancelled (13.5)")
    # -- retreats (F.2) and what follows ---------------------------------------------------------------
    RETREATED = _("retreated to the area Appendix A prefers among those open (13.5, App. A, M28)")
    RETREAT_CONVERTED = _("no other place left: retreated by converting into the city (13.5, M28, M43)")
    NO_RETREAT = _("no place to retreat to: eliminated (13.5)")
    RETREAT_CLASH = _("retreats would clash and this one could not be placed: eliminated (13.5, M28)")
    INDEPENDENT_FORCED_OUT = _("an independent unit forced out of its native area is disbanded (16, M33)")
    MADE_GARRISON = _("attacked by a superior force from the Lagoon: became a garrison in Venice (14, M14)")
    SIEGE = _("destroyed by a completed siege (9.4)")
    LIBERATED = _("a unit not the victim's entered the rebelling province: the rebellion is liberated (11.3, M56)")
    PUT_DOWN_BY_SIEGE = _("the rebelling city was taken by siege: the rebellion is put down (9.4, 11.3)")
    OCCUPIED = _("the unit alone occupies it, or was the last to (4.1, M5)")
    CONTESTED = _("an army or fleet and a garrison of different owners: nobody controls it (4.1)")
    # -- the orders of a letter other than operations (phases A and D): charged or not, and why ------
    NOT_THIS_PHASE = _("not an order of this letter's phase (2, 8.1)")
    NOT_A_PLAYER = _("the writer is no living player: the letter is ignored (4.3)")
    CONTRADICTORY = _("contradicts an earlier order of the same letter (8.1)")
    UNAFFORDABLE = _("could not be paid in full when its turn came (2, 8.1, M30)")
    WRONG_AMOUNT = _("not the fixed price, or not the minimum plus a multiple of 3: unclear (8.1, M37, M38)")
    UNKNOWN_PLAYER = _("names no living player other than the writer (8.1, M31)")
    NO_DUCATS = _("a transfer is of whole ducats, 1 or more: a transfer of 0 is none (8.1, M31)")
    EXCOMMUNICATION_BLOCKS = _("an excommunicated player may neither give nor receive ducats (15, M32)")
    TRANSFERRED = _("the ducats were transferred; the receiver learns of them in phase B (8.1, M31)")
    SOLD = _("the province was sold: the price paid to the seller, the control marker moved (6, M10)")
    BOUGHT = _("the province was bought: the price paid, the control marker moved to the buyer (6, M10)")
    NO_MATCHING_ORDER = _("the other party listed no matching trade (same province, same price): no trade (6, M10)")
    NOT_FOR_SALE = _("the seller does not control the province, or it is occupied or rebelling: no trade (6, M10)")
    BELOW_MINIMUM_PRICE = _("the price is below the province's tax income: no trade (6, M10)")
    BUYER_CANNOT_PAY = _("the buyer could not pay the price in full: no trade, no ducats moved (6, M30)")
    FORCED_TAX_COLLECTED = _("taxed by force: the province's tax collected again, and it rebels at once (5.3, M11)")
    NOT_CONTROLLED = _("the player does not control the province (5.3, 7.2, M13)")
    ISLAND_OCCUPIED = _("a one-unit island rebels only when empty (1.3, 11.1)")
    PAID = _("salary paid: the unit is kept for the year (7.3)")
    PAID_BY_DEFAULT = _("no payment orders: salaries paid by default, garrisons, armies, then fleets (7.3, M12, M50)")
    RAISED = _("a new unit raised for 3 ducats (7.2, 7.3)")
    DISMISSED = _("disbanded as ordered (7.1)")
    NOT_LISTED = _("payment orders were sent and this unit was not listed: disbanded (7.1, M12)")
    NOT_PAID = _("its salary could not be paid in full: disbanded (7.3, M30)")
    NOT_HOME = _("new units are raised only in the current home country (7.2, M13)")
    NO_CITY_FOR_IT = _("an army needs a city, a garrison a fortified city, a fleet a port city (7.2, M13)")
    PLACE_TAKEN = _("the place the new unit needs is occupied (1.3, 7.2, M13)")
    CITY_HELD = _("another player's garrison holds the province's city: no raising there (M13)")
    REBELLING = _("no unit is raised in a rebelling province or city (11.2, M13)")
    ONE_PER_PROVINCE = _("only one new unit may be raised in a province (7.2)")
    DISBANDED_HERE = _("a unit of this province is disbanded: no unit may be raised there too (7.2, M13)")
    FIRST_SPRING_LIMIT = _("no more than three units may be raised in the first spring (3, M48)")
    FLEETS_ONLY = _("Lipari, Pantelleria and Lampedusa hold a fleet or a rebellion, never an army or a garrison"
                   " (1.3, M15)")
    EXCOMMUNICATED = _("excommunicated: no ducats to or from the player until the ban ends (15, M32)")
    NOT_THE_POPE = _("only the Pope excommunicates, another living player, once a letter (15)")
    ONCE_PER_GAME = _("a player is excommunicated once a game at most (15, M32)")
    GRANTED = _("permission granted for this campaign (9.3, 12, M51)")
    ASSASSINATION_SUCCEEDED = _("the highest attempt was paid 30 or more above the highest bodyguard: the "
                               "leader is assassinated (10, M20)")
    ASSASSINATION_GUARDED = _("not 30 above the highest bodyguard: the attempt failed, charged all the same (8.1, 10)")
    NOT_THE_HIGHEST = _("another attempt on the leader was paid more and was carried out; charged all the same (10)")
    BODYGUARD_HIRED = _("bodyguard hired; charged whether or not an attempt was made (10)")
    LEADER_ASSASSINATED = _("the writer's leader was assassinated: D.3 and D.4 orders skipped (2, 10, M40)")
    REBELLION_STARTED = _("the rebellion rose; every player who started it pays (11.1, M21)")
    NOT_ENEMY_CONTROLLED = _("a rebellion starts only in a land province another player or an independent state "
                            "controls (11.1, M21)")
    ALREADY_REBELLING = _("the province is already rebelling (11.1)")
    PACIFIED = _("the rebellion was pacified; every player who paid for it is charged (11.3, M21)")
    NOT_REBELLING = _("no rebellion there as D.3 began (11.3, M21)")
    BRIBE_SUCCEEDED = _("the bribe succeeded (12, M37, M39)")
    BRIBE_OUTBID = _("a larger bribe on the unit, or an equal one of a lower minimum, was the one checked; "
                    "charged (12, M37, M38)")
    BRIBE_TIED = _("equal bribes of the same minimum: all fail; charged (12, M37, M38)")
    BRIBE_COUNTERED = _("the excess over the minimum was smaller than the highest counter-bribe; charged (12, M37)")
    BRIBE_NO_PERMISSION = _("reachable only beside a third player's unit, whose owner gave no permission; "
                           "charged (12, M36, M38, M51)")
    BRIBE_OUT_OF_REACH = _("neither in the briber's home country nor adjacent to a unit that may direct the "
                          "bribe (12, M36, M38)")
    BRIBE_OWN_UNIT = _("one's own unit is not bribed (12, M38)")
    BRIBE_BESIEGED = _("a besieged garrison may not be bribed (9.4, M38)")
    WRONG_BRIBE = _("operate is for independents only, independence for committed units only"
                   " (12, M38)")
    NATIVE_AREA_TAKEN = _("an independent unit already has this native area (16, M54)")
    NATIVE_AREA_CLAIMED = _("another bribe made the area's other unit independent at the same time: this one "
                           "fails; charged (12, 16, M54)")
    COUNTER_BRIBE_PAID = _("counter-bribe paid, whether or not a bribe came (12)")
    # -- what the economy did to the board -----------------------------------------------------------
    SPRUNG_UP = _("an independent garrison sprang up in an empty fortified city no player controls (16, M46)")
    ENDED_BY_INDEPENDENT = _("an independent garrison sprang up in the rebelling city: the rebellion ends (16, M46)")
    ASSASSINATION_REBELLION = _("its leader was assassinated: a province outside the home country rebels (10, M20)")
    LIBERATED_BY_BRIBE = _("a unit in the rebelling province changed owner by bribery: liberated (11.3, M56)")
    VICTIM_ELIMINATED = _("the rebellion's victim was eliminated: the rebellion ends (11.3, M34)")
    CONQUERED = _("controls every province and city of the home country: it joins the player's (4.4, M9)")
    HOME_LOST = _("another player conquered it, or controls every one of its cities: the home "
                  "country is lost (4.4, M9)")
    ELIMINATED = _("every city of the current home country is controlled by other players: eliminated (4.3, M8)")
    LEFT_THE_GAME = _("its player left the game and no substitute leader took it over before the campaign ended: "
                     "eliminated (18.3, 4.3, M62)")
    MADE_INDEPENDENT = _("its player was eliminated: the unit becomes independent where it stands (4.3, M34)")
    NATIVE_AREA_HELD = _("its player was eliminated, and its area has an independent unit already: disbanded (M34)")


class Automatic(Enum):
    """An automatic support an attack had (M44): a rebellion's, or an independent garrison's, each
    adding 1 to a lone player's advance into its province."""

    REBELLION = _("the rebellion's automatic support (11.2, M44)")
    GARRISON = _("the independent garrison's automatic support (16, M44)")


@dataclass(frozen=True)
class OrderResult:
    """One unit's operation in F.1: the unit as it stood (its owner after phase D), the order it
    was given, what it carried out (the order, or the Hold it became), whether that succeeded,
    and why; ``dislodged_from`` is set when the unit was forced to retreat (or, in Venice, to
    become a garrison): the area the attack came from (M41); ``automatic``: the automatic
    supports an attack had (M44), counted in its strength."""

    unit: Unit
    order: Order | None
    operation: Order
    succeeded: bool
    reason: Reason
    strength: int = 0  # an attack's final strength; a hold's, a support's or a siege's own: 0
    dislodged_from: str | None = None
    automatic: tuple[Automatic, ...] = ()


@dataclass(frozen=True)
class IgnoredOrder:
    """An order the judge sets aside without disclosing it (8.2, M50)."""

    player: str
    order: Order
    reason: Reason


@dataclass(frozen=True)
class Retreat:
    """A retreat the judge chose in F.2 (13.5, App. A): the unit forced out (as it stood then:
    a garrison converting under attack is already an army or fleet, M43), the area the attack
    came from, and where it went (None: eliminated)."""

    unit: Unit
    attacked_from: str
    to: Unit | None
    reason: Reason


@dataclass(frozen=True)
class Disband:
    """A unit removed from the board in F: no retreat, a clash, an independent forced out, a siege."""

    unit: Unit
    reason: Reason


@dataclass(frozen=True)
class Conversion:
    """A unit that changed kind in F (9.7, 13.5, 14)."""

    before: Unit
    after: Unit
    reason: Reason


@dataclass(frozen=True)
class SiegeReport:
    """A siege carried on, completed or broken this season (9.4, M22)."""

    area: str
    besieger: Owner
    seasons: int  # successful consecutive seasons counted after this one (0: broken)
    reason: Reason


@dataclass(frozen=True)
class RebellionEnd:
    """A rebellion ended in F: liberated, put down by a Hold, or put down by a siege (11.3)."""

    area: str
    victim: Owner
    reason: Reason


@dataclass(frozen=True)
class ControlChange:
    """A control marker that changed after F.2 (4.1, M5); ``after`` None: nobody controls it."""

    area: str
    before: Owner | None
    after: Owner | None
    reason: Reason


@dataclass(frozen=True)
class Adjudication:
    """Everything the Action phase (F.1 and F.2) did, and the position it leaves."""

    results: tuple[OrderResult, ...]
    ignored: tuple[IgnoredOrder, ...]
    retreats: tuple[Retreat, ...]
    disbanded: tuple[Disband, ...]
    conversions: tuple[Conversion, ...]
    sieges: tuple[SiegeReport, ...]
    rebellions_ended: tuple[RebellionEnd, ...]
    control_changes: tuple[ControlChange, ...]
    position: Position

    def result(self, place: Place) -> OrderResult:
        """The result of the unit that stood at ``place`` when F.1 began."""
        for result in self.results:
            if result.unit.place == place:
                return result
        raise KeyError(place)

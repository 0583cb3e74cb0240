"""Days of Iron as a ``Ruleset``: the thin adapter the table service calls, and where it registers.

Two ways to play (option ``board``): on the measured table (the default) the bot sets the units
out, draws them to scale and moves them by the players' orders; with ``board=tape`` the miniatures
stand on a real table, measured with a tape, and the players move them. Either way the bot
keeps each side's order of battle, rolls what the book tells players to roll, keeps secret records
sealed with a public commitment, tracks losses and objectives and scores the end. Each order is one
short line (``orders.py``; see ``HELP``); canonical texts use unit ids so they replay exactly.
Everything here hands over to the book's sections in ``rules/``: ``rules/phases_17.py`` guards who
may give what when, and the two ``match``es below send each typed order to the rule that checks it
and the rule that carries it out.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from games.core.errors import GameError, quoting, resolve_name
from games.core.options import check_options, with_defaults
from games.core.rng import Rng
from games.core.ruleset import Event, OptionSpec, Outcome, Ruleset, ScenarioInfo, Seat, register, unhandled
from games.core.seats import side_seats
from games.core.view import BoardMark, Overlay, View
from games.days_of_iron import data, orders, view
from games.days_of_iron.orders import (
    Attach,
    Cancel,
    Charge,
    ChargeHome,
    Check,
    Clear,
    Demolish,
    Detach,
    Dismount,
    Dispute,
    DoiOrder,
    Dust,
    End,
    Evade,
    Face,
    Fate,
    Feint,
    Fire,
    Form,
    Fortify,
    GoToGround,
    Hide,
    Initiative,
    Loss,
    Measure,
    Morale,
    Mount,
    Move,
    Next,
    Objective,
    Offboard,
    Pontoon,
    Promote,
    Rally,
    Ready,
    ReserveFire,
    Return,
    Reveal,
    Scout,
    SquadronCharge,
    Staff,
    Stand,
    Surrender,
    Table,
    own_unit,
)
from games.days_of_iron.rules import (
    charges_17_2,
    checks_15,
    cover_17_5_6,
    deployment_16,
    dismounting_9_1,
    disputes_3_4,
    engineers_11,
    evading_17_4_16,
    fires_15_9,
    formations_12,
    initiative_17_1,
    losses_17_5,
    morale_17_2,
    movement_17_4,
    orders_of_battle_6,
    phases_17,
    reference_sheets_17,
    routing_17_4_14,
    scouting_19_1,
    seen_fire_17_3,
    shooting_17_3,
    squadrons_17_2_6,
    staff_14,
    victory_18,
)
from games.days_of_iron.state import OVER, SETUP, State

SYSTEM_ID = view.SYSTEM_ID
SetUpOrder = Staff | Ready | Hide | Offboard | Cancel | Scout
UnitAction = GoToGround | SquadronCharge | Fortify | Dismount | Mount | Demolish | Clear | Pontoon  # one unit's own action
PlayOrder = (Initiative | Next | End | Objective | Surrender | Reveal | Dust | Loss | Fate | Promote | Morale | Table
             | Dispute | Check | Rally | Attach | Detach | Move | Form | Face | Measure | Fire | Charge | ChargeHome | Stand | Evade
             | Feint | ReserveFire | Return | GoToGround | Fortify | SquadronCharge | Dismount | Mount
             | Demolish | Clear | Pontoon)  # with SetUpOrder, every DoiOrder: mypy checks apply handles each

HELP = """\
**Days of Iron** - Franco-Prussian War miniatures (book: Days of Iron, A. Stone), two ways (option `board`):
- `board=measured` (default): the bot keeps a measured table. When both sides are ready it sets each
  side's units out in column in its deployment zone (16.2), drawn to scale (1" stands, 4.1; column 4
  infantry stands wide, line one rank, skirmish with 1" gaps, 12), and moves them by your orders in
  the Movement phase. Hidden units (16.4) are on your own board only, marked hidden, until revealed
  (by `reveal`, or by the bot when an enemy unit sees them, 16.3: woods and towns hide formed units
  beyond 4" heavy / 6" light, skirmishers beyond 2");
  off-board units (16.5) on nobody's until they arrive.
- `board=tape`: you measure on your own table; the bot keeps the records below.
Either way it keeps both orders of battle (points from sections 5-6), rolls staff quality
(14.1, or the national table of 19.4 with option staff=national), initiative (17.1) and disputed
matters (3.4), keeps hidden (16.4) and off-board (16.5) units SEALED (only your side and the umpire
read them; the channel sees a numbered record and its SHA-256 commitment, checked when revealed),
runs scouting (19.1-19.3), tracks losses and objectives and scores the margin of victory (18.2).
The book's reference sheets (movement, shooting, morale, close assault, casualties) are NOT in the
text: the measured table uses HOUSE sheets (data/days_of_iron/reference/README.md says which numbers
are house and how your printed sheets replace them, file by file, as a data pack). The assistant's
`morale` and `table` orders read owners' tables only (kinds morale and table).

Measured table, in your own part of the Movement phase (17.4), for your units (names or ids):
- `UNIT move INCHES [wheel left|right DEGREES] [forced]` e.g. `2e de Ligne move 6`,
  `74th move 3 wheel left 30`: straight ahead from the command stand, then wheel on the inner front
  corner; the outer arc costs DOUBLE. The allowance is the movement sheet's rate for the arm and
  the formation the unit STARTED the phase in. `forced`: a forced march, infantry from march
  column only, cavalry and guns from column (12.1);
  it disorders the unit, not within 12" of a visible formed enemy, and by the whole brigade (17.4.5,
  house: once one unit of a brigade force marches, its brigade-mates move this turn only with
  `forced`; once one has moved, formed or charged otherwise, none force marches).
  A unit may not leave the table nor end within 1" of an enemy it can see. It may pass through
  friends (17.4.8, 17.4.9) but no move, wheel, formation change, charge impulse or evade ENDS on
  another unit's base: the refusal names the unit in the way and how far it can go. INCHES 0-60,
  DEGREES 1-180.
- `UNIT form line|column|march|skirmish|square` change formation about the command stand (`column`: the
  manoeuvre column, 4 infantry stands wide; `march`: the infantry march column, 2 wide, 12.1; costs
  half the allowance of the formation it started in, house; what then remains is the slower
  formation's allowance less what it has used, 17.4.3). `UNIT turn left|right|about` turns it 90 or 180 degrees where it stands:
  a formation change too (17.4.7), one a turn, never in a heavy wood. A side's charges go home (or
  feint) before its other moves (17.4.1), and a charger neither forms, turns nor wheels before its
  own (17.4.2).
  `form square` (house; the book names squares in 17.4.7 and 17.4.16): formed infantry from line or
  column (a march column forms column first), its stands in a hollow square, each face a quarter of
  them wide, about its centre; a square does not move or turn (it forms line or column again), is a
  dense target and has no flank or rear; charged by cavalry it adds 2 to its Being Charged die, and
  against cavalry 2 to its close assault total (house); routing, it breaks up into a column.
  Class 1 infantry never skirmish (8.1); a battery limbers with `form column`, not in a turn it fired
  unless it is horse artillery (10.3), and fires only deployed (`form line`), never limbered.
- Morale phase (17.2): `UNIT charge TARGET` declares a charge by foot or horse at a visible enemy
  ahead (within 45 degrees) and within its move. Once every charge is declared (the non-initiative
  side's `next`, 17.2.2) each declared charge, the initiative side's first, takes the To Charge test
  (house morale chart, 1d6 in the Class column), then its 1st Impulse (it wheels square on to the
  target and goes halfway to it, 17.2.3); failing, it moves no closer to any enemy that turn but may
  still turn, form or move away. Skirmishers charge only routers, skirmishers, artillery
  and staff (12.3). Contact is 1" or more of base against base (17.4.2); a charge meeting its
  target on a corner closes up square to it (house). Movement phase:
  `UNIT charge home` - the Charge Home test, then the rest of the move into contact (fail: halt
  2" short). A charge's path crosses rivers only at bridges and fords and no unit may stand in it
  (enemy screens in the open are swept aside, 17.2.7; a declared charge's 1st Impulse passes
  through a friendly deployed battery, not a limbered one, and is disordered, and the battery may
  not fire that turn as its gunners evade, 17.4.8): a charge that cannot reach is refused; an
  impulse short of contact ends no nearer than 1" to an enemy it did not charge (17.4). When the
  Close Assault phase begins every group of units in contact fights one combat, with any friendly
  unit touching the rear of a line of it and directly opposite its enemy (17.5; house chart: 1d6 +
  the side's average Class, +1 charging; the beaten side loses stands, shared evenly, a spare one
  from its lowest Class, 17.5.2; a tie costs each side a stand). The house results
  sheet, by the winning margin, moves both (17.5.1): the loser routs or falls back, the winner holds,
  advances or pursues; an advance into a new enemy is a Break-Through Attack fought next turn
  (17.5.4; its enemy destroyed, the winner first wheels up to 45 degrees towards the nearest enemy
  within its move, paying double the arc; a new enemy that routs from its Being Charged test lets
  the winner advance the balance of its move); a routing unit in contact suffers an Automatic Major
  Victory first (17.5.3); a rout into a river away from a ford or bridge drowns the unit (15.3); a
  Class 2+ unit beaten in a wood, town or other cover does not fall back out of it (17.5.5).
- Being charged (17.2.2): when every 1st Impulse is made the charged unit takes the Being Charged
  test (house chart, 1d6 in the Class column): it stands, is disordered and halted, or routs. A side
  whose charged units may evade answers in its own part (the initiative side first) with `UNIT
  stand`, or `UNIT evade` for skirmishers, battery crews and Generals (17.4.16: half
  the move directly away, no formation change, crews leave the guns, limbered horse artillery evades with them, 10.3; off the table it may come back
  three turns later with `UNIT return` in the Movement phase); `next` and the rest stand.
  `UNIT evade into COVER` (a wood, town... by name), `UNIT evade into SQUARE` or, a battery's crews, `UNIT evade behind FRIEND`
  (friendly infantry). Into a SQUARE (a friendly infantry square within the half move) the unit
  huddles at its centre, is not charged or shot at on its own there, and leaves with a move;
  infantry, staff and crews may evade the shortest way into cover, up to the same half move (17.4.16); crews on foot
  go up to half an infantry skirmish move, into cover or behind friendly infantry (10.2). A unit charged from within 2" by
  foot or 6" by horse is caught: no test, no evade, no formation change (17.2.3). A charge at a
  charging enemy is a counter charge: the counter-charged unit tests at once (17.4.13). Infantry
  never charge cavalry or Generals and artillery never charges (17.2.4); a unit whose declared charge
  went ahead may not shoot (17.2.5).
  `UNIT squadron STANDS charge TARGET` (cavalry, Morale phase, 3 stands or more, 17.2.6): a squadron splits off and
  charges; the rest of the unit may charge only the same target, in the Movement phase; the squadron rejoins its unit
  as the next turn begins, if both stand on the table and neither routs.
  Skirmish screens (17.2.7): a formed unit may charge an enemy beyond a screen; skirmishers in the
  open on the ground its 1st Impulse sweeps rout at once and may not shoot that turn, and a screen
  charged by formed troops must evade (`UNIT evade`; not answering, it evades all the same).
- Movement phase: `UNIT charge TARGET` by a unit that declared no charge is an opportunity charge
  (17.4.11): To Charge test, the target's Being Charged test and defensive fire, then half its move
  straight ahead (no wheel or formation change; after shooting only at an enemy within 2").
  `UNIT feint` stops a declared charge short of contact (17.4.12; not Class 1: a side with a Class 1
  charge short of its target says `UNIT charge home` before `next`).
  `UNIT go to ground` (infantry, own part of the Movement phase, 17.2.9): the unit goes to ground of
  its own accord; as any unit gone to ground it may not move until it passes a rally test.
  `UNIT dismount` (cavalry, 9.1): it deploys as skirmishing infantry and counts as infantry on foot
  for every rule until `UNIT mount` takes the horses again, in column; each is a formation change.
  `UNIT fortify` (infantry in line in a wood or town, 17.5.6): said in the Movement phase of two
  successive turns, with no move, shot or charge between, it lays defensive cover (a light obstacle)
  along the unit's front.
- Engineers (11, 15.5), in your own part of the Movement phase: `ENGINEER demolish BRIDGE` (within 1"
  of it, house) said in three successive Movement phases (six for a stone bridge) rolls 1d6 on the
  last: 5-6 cuts a 1" span in mid-stream and the river is no longer crossed on that bridge; only
  one attempt per bridge. `ENGINEER clear OBSTACLE` removes 1" of a wall or barricade beside him.
  `ENGINEER pontoon RIVER with UNIT` (a foot unit of 4 stands or more within 2" of him, house) said in
  six successive Movement phases lays a 2" wide, 4" long pontoon across a river up to 4" wide, a
  bridge units cross (a 2" bridge carries a march column, not a 4-wide column). The engineer
  detachment is its officer and pioneers (5.1). Workers have no other activity: a worker that
  moved, fired, charged or changed formation that turn may not work, one that worked does nothing
  else that turn, and a turn without the work starts it again. The status shows the work.
- Shooting phase: `UNIT reserve fire` keeps a unit's fire (instead of firing) for defensive fire
  (17.3.1): it fires at an enemy charging it before its Charge Home test or opportunity charge.
  `UNIT reserve fire STANDS` keeps only that many stands' fire: the others may fire now.
  In the Shooting phase no unit fires at an enemy in base contact with one of its side (17.3.2), and
  small arms hits on a battery kill crew and horses, never a gun (17.3.5). Artillery hits roll on
  the house Damage to Artillery chart: a gun lost, a crew hit (that gun fires at half effect until
  the next Shooting phase ends) or the limber team lost (the battery cannot limber, nor move while
  limbered; a horse battery counts it as a limber casualty instead, and at two moves only as limbered
  foot artillery, 10.3); the status lists damaged batteries.
- Shooting phase (17.3): `UNIT fire at TARGET`, once a turn, at an enemy inside the unit's 45-degree
  arcs (a Mitrailleuse's 22.5) from its front corners and in range of its chart (house small arms
  12", artillery 32"); foot
  and horse must pick the NEAREST such enemy (artillery may choose); a stand does not fire when a
  friend stands in the corridor from its front corners to the target (17.3.4; the unit's other
  stands fire); only skirmishers fire at staff. One d6 per stand or gun it
  started the phase with, two per Krupp breech loader or Mitrailleuse (10.1); each die takes the
  chart's modifier for the target (13: dispersed - skirmishers, staff, units gone to ground -1;
  line 0; dense - columns, limbered guns +1; fast - cavalry charging over 8" -1; house) and its
  cover; the hits come off when the phase ends (simultaneous fire); a battery
  rolls on Damage to Artillery and a General on Casualties to Staff for each H (house charts).
  A unit that has not moved or changed formation may also fire at an enemy that passed through its
  arcs within range (and in sight) in last turn's Movement phase, wherever it stands now: the fire
  is measured at the range and target class it showed where it came nearest (17.3).
- `measure UNIT to UNIT` (any time in a turn): edge-to-edge distance and bearing, answered to you only.
- `/order text:? ` lists the moves, wheels and formations open now; `/order text:... preview:true`
  draws where the unit would end, its 45-degree firing arcs to the chart's longest range and a line
  with the distance to each enemy unit you can see. Terrain (section 15) is drawn on the
  table: slow ground divides the distance moved over it (only that part of the move, 17.4.4) by its
  sheet multiplier, a column wholly on a road goes x1.5 there (15.2); rivers are crossed only at
  bridges and fords (fords in column, and they disorder); crossing a wall or fortification disorders (15.10); towns, woods, fords and swamps
  keep a unit in them disordered (15.7, 17.2.8); woods, towns and hills block sight unless firer or
  target stands in them, and sight over a hill's crest (its centre lines) only from within 1" of
  it (15.1); cover (stood in, or within 1" behind it, 15.11; none on a road through a town, 15.2)
  gives -1/-2 a die. Hills (17.3.3): only howitzers and guns
  on a hill fire at targets on a high hill; guns on a high hill have 6" of dead ground and fire over
  friends more than 4" from the target; howitzers shell woods, towns and hills over friends.
  Passage of lines (17.4.9): a move through a friendly line costs as through x0.5 ground (house),
  only for Class 2 and better in the open or a light wood; the unit may not charge that turn, and
  through shaken troops of a better Class it ends disordered.
- Morale and rout (17.2.8-17.2.11, 17.3, 17.4.14-15; house sheet morale-tests.toml): at the end of
  the Shooting phase every unit that lost stands takes the Casualties from Shooting test (1d6 +
  factors in its Class column: pass, halted, gone to ground, disordered, shaken or rout). A halted
  unit may not move closer to the enemy; one gone to ground may not move until it rallies;
  disorder also comes from urban areas, woods, fords, swamps and every forced march (17.4.5),
  and lifts after a turn without moving, firing or charging. A routing unit
  makes half its rout distance directly away from the enemy at once, the rest of one full rout
  distance a turn at the start of its side's Movement phase (before other moves); off the table it
  is gone for good, into an enemy it is dispersed, into or across a river away from a ford or
  bridge it drowns and is removed (17.5.1); friends in line or skirmish it bursts through
  are disordered, columns it goes around; an unlimbered battery that routs is destroyed. When the
  Morale phase opens every unit disordered, shaken, halted or gone to ground takes the rally test
  (not one disordered only by the wood or town it stands in: it stays so until it moves out);
  `UNIT rally` (or `rally UNIT`, Morale phase, once a turn) tests a routing unit, or one not in good
  order that has not yet taken its test this turn: passing, a router halts in line or column facing
  back the way it routed. A halted unit moves normally again once it
  passes that rally, or a Casualties from Shooting test in a later turn (17.2.10).
- Generals (14.2, 14.4, 17.3.5): `GENERAL attach UNIT` (Movement phase, within his move) puts him
  touching the unit's rear: he moves with it, adds his quality in its tests and routs with it, and
  rolls 1d6 when it takes casualties (6: a roll on Casualties to Staff). `GENERAL detach` frees him
  (moving him away does too). A rally test counts the best General of the unit's command within
  his 16" command radius (14.2), or out of command. A General attached to a unit in a close
  assault rolls 1d6 too (6: Casualties to Staff, 17.5.7); an unattached General an enemy unit
  contacts (he did not evade) is captured (17.5.7, 14.5). A wounded General ("no command for N
  turns" on the chart) keeps his place but has no command for N turns from the phase of his
  wounding (14.3): no attached factor, no command radius; his brigade is out of command unless a
  senior General is within 16".
- Engineers (17.3.5, 17.5.7): `ENGINEER attach UNIT` and `ENGINEER detach` as a General's, but no
  quality and no command: attached, he moves with the unit, rolls 1d6 when it takes casualties or
  fights a close assault (6: Casualties to Staff) and routs with it. An unattached engineer hit by
  fire rolls on Casualties to Staff for each H; wounded, he cannot work for the chart's turns (house).
- Close Assault phase, your own part (18.1): `UNIT surrender` (or `surrender UNIT`) surrenders one of
  your AFFECTED units (house reading: routing, in contact with an enemy, under half strength,
  disordered or shaken); it leaves the table and counts full points lost; a General attached to it
  is captured with it (house).
- Arrivals (16.5, 17.2.1): `dust BRIGADE [at ENTRY]` in your part of the Morale phase declares an
  off-board brigade at one of your side's entry points (the scenario's, or `baseline`, the middle of
  your own edge; `?` lists them). It comes on when your part of that turn's Movement phase begins, in
  column facing into the table, and may move; within 25" of a visible enemy not routing it comes on
  at your baseline instead. If a unit stands where the column would come on, it comes on at the
  nearest clear place along that table edge; if the edge has no room it stays off the table and
  comes on as your next Movement phase begins (17.4.8: no unit ends on another's base). Until then it
  is on nobody's board but the record is opened.
- The result on the measured table is counted from the table (18.2): players do not record `loss`,
  `destroyed` or `routed-off`, nor `rout` (failed tests rout units, 17.2, 17.5) or `killed`/`captured`
  (the Casualties to Staff rolls, 14.3) (the umpire may correct); objectives with a point on the table are held
  at the end of each turn by the side whose nearest unit in good order is within 3" of it (house).
  The end-of-game block lists each unit lost, full or half, and why. A game ends (`end`, both sides)
  only after the non-initiative player's Close Assault phase, i.e. in the Initiative phase (18).

Set-up (each side, then `ready`):
- `staff` roll your Generals' quality (your own General is Capable, not diced)
- `hide UNIT at WHERE` record a hidden unit (sealed); on the measured table WHERE is
  `X Y [facing DEGREES] [line|column|skirmish]`, inches from the table's top-left corner as the
  rulers read, inside your deployment zone (16.2: your own edge's 12"); it is revealed there
- `offboard BRIGADE [at WHERE]` hold a brigade off the table (sealed; at most a third of your
  points); `cancel N` drop your record N
- `scout UNIT` send light cavalry scouting (sealed until both are ready; option scouting=yes,
  or a scenario that uses scouting)
- `UNIT form march` (measured table) set an infantry unit out in march column, 2 stands wide, the
  column that force marches (12.1); `UNIT form column` undoes it. Others are set out in column.
- `ready` finish set-up. When both are ready the bot scores scouting and says who deploys first.
Each turn: `initiative` (both roll 1d6, draws re-rolled), then for Morale, Shooting, Movement and
Close Assault the initiative side acts first and says `next`, then the other side says `next`.
- `reveal UNIT` place a hidden unit (publishes the record and its nonce)
- `dust BRIGADE [at WHERE]` (Morale phase) off-board brigade arrives (publishes the record)
- `loss UNIT N` N stands (or guns) lost; infantry at 2 stands / cavalry at 1 are removed (17.5.8)
- `rout UNIT`, `rally UNIT`, `destroyed UNIT`, `routed-off UNIT`, `surrender UNIT`,
  `captured GENERAL`, `killed GENERAL`, `promote GENERAL` (field promotion a turn later, 14.3;
  on the measured table your own General within 8" of the formation; the new General takes the
  field beside him)
- `objective NAME SIDE|none` who holds an objective now (in your own part of a phase)
- `morale UNIT TEST [FACTOR ...]`, `table TABLE [COLUMN] [+N|-N]` (only with reference tables)
In your own part of a phase (any time for the umpire): `dispute WHAT` (1-3 as the side asking
wishes, 4-6 as the other), `check NAME [about TEXT]` for the book's simple d6 checks (wood, ford,
demolish, general-hit, fire). Your own units' losses may be recorded at any time in the battle.
`end` (in the Initiative phase, i.e. after a turn's Close Assault): both sides must say it; the
umpire may end at once. Result: points lost (destroyed, shattered, surrendered, routed off, and
killed or captured Generals: full; routing or under half strength: half), margin per 18.2 (option margin=scaled scales the 800-point
bands), or objectives (option victory=objectives); every option is listed below. The umpire may
give any order; `staff` and `ready` then name the side (`staff french`).
Staff quality is public (the book does not make it secret). NOT done by the bot on the measured
table: pontoons of more than one span (15.5). Fires (15.9, 15.10): in the
Shooting phase `check fire about AREA` naming a wood, town or wooden obstacle (a wall named fence,
palisade...) where your side has two stands sets it alight on a 6, as does an F on an owner's
Artillery chart where the target stands; a fire spreads 2" downwind each Movement phase (option
wind, 15.12: none, the default, means no spread) and troops still in it after three Movement
phases are removed. The wind and the fires are in the status and on the board. Objectives without
a point on the table are recorded when the players say so (`objective`). With board=tape the bot
keeps the records only: positions, measuring, movement, formations, markers, command radius,
shooting, close assault and their results are the players' (recorded with `loss`, `rout`...).
Scouting counts 2 figures per cavalry stand (4.1). Victory bands: "0 to 150" is a draw, more than 150 a Minor Victory, and so on.
"""

OPTIONS = (
    OptionSpec("scouting", "Use the optional scouting rules 19.1-19.3.", "scenario", ("scenario", "yes", "no")),
    OptionSpec("staff", "Staff quality table: 14.1 or the national ratings of 19.4.", "scenario",
               ("scenario", "standard", "national")),
    OptionSpec("victory", "Decide the winner on points lost or on objectives (18.2).", "scenario",
               ("scenario", "points", "objectives")),
    OptionSpec("margin", "Victory bands as printed for 800 points (book) or scaled to the game size.", "scenario",
               ("scenario", "book", "scaled")),
    OptionSpec("turns", "End automatically after this many turns (0 = when the players agree).", "0", between=(0, 100)),
    OptionSpec("board", "measured: the bot keeps every unit's place on a measured table and moves it; "
               "tape: you measure on your own table and the bot keeps the records.", "measured", ("measured", "tape")),
    OptionSpec("wind", "Wind (15.12): none (fires do not spread), the compass point it blows from (the top of "
               "the table is north), or roll (1d8 when both sides are ready).", "none", fires_15_9.WIND_CHOICES),
    OptionSpec("force1", "Order of battle for the first side (a forces/ file id).", ""),
    OptionSpec("force2", "Order of battle for the second side (a forces/ file id).", ""),
)


def game_options(given: dict[str, str], spec: data.ScenarioSpec) -> dict[str, str]:
    """The options checked (games.core.options), "scenario" replaced by the scenario's own choice,
    the turn limit as a plain number and forces by their file ids."""
    out = with_defaults(OPTIONS, check_options(OPTIONS, given, system="Days of Iron"))
    out["turns"] = str(int(out["turns"]))
    defaults = {"scouting": "yes" if spec.scouting else "no", "staff": spec.staff, "victory": spec.victory,
                "margin": spec.margin}
    for key, value in defaults.items():
        if out[key] == "scenario":
            out[key] = value
    for key in ("force1", "force2"):
        if out[key]:
            out[key] = resolve_name(out[key], {f: f for f in data.force_ids()}, "order of battle")
    return out


@register(SYSTEM_ID)
class DaysOfIron(Ruleset[State, DoiOrder]):
    id: ClassVar[str] = SYSTEM_ID
    name: ClassVar[str] = "Days of Iron"
    state_type: ClassVar[type[State]] = State
    book: ClassVar[str] = "Days of Iron: Franco-Prussian War regimental battles"
    board_marks: ClassVar[frozenset[BoardMark]] = frozenset({"zones"})  # no ring, no last move: the table as it stands
    # 2: the section-by-section book review of issue 21 (charges, contact, ...); 3: units in contact
    # fight one pooled combat with their reinforcements (17.5, 17.5.2), not pair by pair; a limbered
    # battery does not fire (10.3); a charger does not form or turn before its 2nd Impulse (17.4.2);
    # lost stands come off the rear (the front stays in contact)
    rules_version: ClassVar[str] = "3"

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo(s, data.scenario(s).name, data.scenario(s).description) for s in data.scenario_ids()]

    def options(self) -> list[OptionSpec]:
        return list(OPTIONS)

    def help(self) -> str:
        ref = data.reference()
        loaded = ("Reference tables loaded from a data pack: " + ", ".join(ref.sources) + ".") if not ref.empty else (
            "Reference tables loaded: none (the shipped game has no reference tables for `morale` and `table`).")
        sheets = data.house().sources
        loaded += "\nMeasured-table sheets: " + ", ".join(f"{name} ({src})" for name, src in sorted(sheets.items())) + "."
        return HELP + loaded

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> State:
        ids = data.scenario_ids()
        spec = data.scenario(resolve_name(scenario or "meeting", {s: data.scenario(s).name for s in ids}, "scenario"))
        return orders_of_battle_6.new_state(spec, game_options(options, spec))

    def seats(self, state: State) -> list[Seat]:
        return side_seats(state.sides)

    def to_act(self, state: State) -> list[str]:
        return phases_17.to_act(state)

    def parse_order(self, state: State, seat: str, text: str) -> DoiOrder:
        """Read, guard and check an order; every refusal starts by quoting the whole order."""
        try:
            verb = orders.GRAMMAR.verb(text)
            phases_17.guard(state, seat, verb, text)
            return self._checked(state, seat, orders.read(state, seat, text))
        except GameError as err:
            raise quoting(text, err) from None

    def legal_orders(self, state: State, seat: str) -> list[DoiOrder]:
        """The candidates of ``phases_17``, each kept only if its text passes as if typed, so the
        list never offers what ``apply`` would refuse (nor names an enemy's hidden unit).

        Each text goes through ``parse_order``'s steps, in its order: the verb, ``phases_17.guard``,
        ``orders.read`` and ``_checked``; only the reading is remembered (``orders.Reader``: a
        function of the text and the names, so a text offered again a few orders on is not
        parsed again), every rule's check runs in this state. A new order joins the list by
        being built (ids, not names) in ``phases_17.candidates`` (or a rule module's candidates
        it calls) and being checked by ``_checked``, as it must be to be played at all."""
        out: dict[str, DoiOrder] = {}
        reader = orders.Reader(state, seat)
        for candidate in phases_17.candidates(state, seat):
            text = candidate.text
            try:
                phases_17.guard(state, seat, orders.GRAMMAR.verb(text), text)
                read = reader.read(text)
                if read is None:
                    continue
                order = self._checked(state, seat, read)
            except ValueError:
                continue
            out.setdefault(order.text, order)
        return list(out.values())

    def apply(self, state: State, seat: str, order: DoiOrder, rng: Rng) -> list[Event]:
        """Check the order again in this state (any seat's order comes through here), then carry it out."""
        if isinstance(order, DoiOrder):
            try:
                phases_17.guard(state, seat, orders.GRAMMAR.verb(order.text), order.text)
                order = self._checked(state, seat, order)
            except GameError as err:
                raise quoting(order.text, err) from None
        else:
            order = self.parse_order(state, seat, order.text)
        return self._carry_out(state, seat, order, rng)

    def play(self, state: State, seat: str, text: str, rng: Rng) -> list[Event]:
        """A logged order replayed: ``parse_order`` has checked it in this very state, so it is
        carried out without ``apply``'s second check (the check is most of a measured-table order's
        cost; a checked order checks the same again, so the result is the same)."""
        return self._carry_out(state, seat, self.parse_order(state, seat, text), rng)

    def replay(self, state: State, seat: str, text: str, rng: Rng) -> list[Event]:
        """A stored order shown again (``/game replay``): read and guarded as ``play`` does, but a
        move or a charge is not checked again. Their checks (``check_move`` or ``check_charge``,
        then ``check_status``) only refuse: they change nothing (a charge's path is tried on a
        copy of the unit) and give the order back as it came, and the store holds only orders that
        passed them, so the result is ``play``'s. They are most of a long game's replay (~1.8 s of
        a 3,000-order measured-table game); ``/game verify`` still makes them."""
        try:
            phases_17.guard(state, seat, orders.GRAMMAR.verb(text), text)
            order = orders.read(state, seat, text)
            if not isinstance(order, (Move, Charge)):
                order = self._checked(state, seat, order)
        except GameError as err:
            raise quoting(text, err) from None
        return self._carry_out(state, seat, order, rng)

    def _carry_out(self, state: State, seat: str, order: DoiOrder, rng: Rng) -> list[Event]:
        if isinstance(order, SetUpOrder):
            return self._set_up(state, seat, order, rng)
        events = self._play(state, seat, order, rng)
        if not formations_12.measured(state):
            return events
        return [*events, *evading_17_4_16.expose(state), *deployment_16.spotted(state)]

    def _checked(self, state: State, seat: str, order: DoiOrder) -> DoiOrder:
        """The order checked against the rules and made canonical (ids, the command promoted)."""
        match order:
            case Staff() | Ready():
                return deployment_16.check_side_order(state, seat, order)
            case Hide():
                return deployment_16.check_hide(state, seat, order)
            case Offboard():
                return deployment_16.check_offboard(state, order)
            case Cancel():
                return deployment_16.check_cancel(state, seat, order)
            case Scout():
                scouting_19_1.check_scout(state, own_unit(state, seat, order.unit))
            case Dust():
                return deployment_16.check_dust(state, seat, order)
            case End():
                victory_18.check_end(state, seat)
            case Surrender() | Objective():
                return victory_18.check_order(state, seat, order)
            case _:
                engineers_11.check_not_at_work(state, order)  # 11: workers do nothing else that turn
                checked = self._checked_unit_order(state, seat, order)
                morale_17_2.check_status(state, checked)
                return checked
        return order

    def _checked_unit_order(self, state: State, seat: str, order: DoiOrder) -> DoiOrder:
        match order:
            case Fate(fate="rally") | Rally() if formations_12.measured(state):
                return morale_17_2.check_rally(state, seat, own_unit(state, seat, order.unit))
            case Rally():  # board=tape: `UNIT rally` records the rally as `rally UNIT` does
                return self._checked_unit_order(state, seat, Fate("rally", order.unit))
            case Attach():
                return staff_14.check_attach(state, seat, order)
            case Detach():
                return staff_14.check_detach(state, seat, order)
            case Reveal():
                deployment_16.check_reveal(own_unit(state, seat, order.unit))
            case Loss() | Fate():
                return victory_18.check_record(state, seat, order)
            case Promote():
                return staff_14.check_promote(state, own_unit(state, seat, order.unit))
            case Morale():
                morale_17_2.check_morale(own_unit(state, seat, order.unit), order)
            case Table():
                return reference_sheets_17.check_table(order)
            case Dispute():
                return disputes_3_4.check_dispute(order)
            case Check():
                return checks_15.check_check(state, seat, order)
            case Move() | Form() | Face() | Measure() | Fire() | Charge() | ChargeHome() | Stand() | Evade() | Feint() \
                    | ReserveFire() | Return():
                return self._checked_table_order(state, seat, order)
            case GoToGround() | SquadronCharge() | Fortify() | Dismount() | Mount() | Demolish() | Clear() | Pontoon():
                return self._checked_unit_action(state, seat, order)
        return order

    @staticmethod
    def _checked_unit_action(state: State, seat: str, order: UnitAction) -> DoiOrder:
        """The measured table's single-unit actions outside moving and shooting (17.2.6, 17.2.9, 17.5.6,
        9.1) and the engineers' work (11, 15.5)."""
        match order:
            case Demolish():
                return engineers_11.check_demolish(state, seat, order)
            case Clear():
                return engineers_11.check_clear(state, seat, order)
            case Pontoon():
                return engineers_11.check_pontoon(state, seat, order)
            case GoToGround():
                return morale_17_2.check_go_to_ground(state, seat, order)
            case SquadronCharge():
                return squadrons_17_2_6.check_squadron(state, seat, order)
            case Fortify():
                return cover_17_5_6.check_fortify(state, seat, order)
            case Dismount() | Mount():
                charges_17_2.check_form_allowed(state, order)
                return dismounting_9_1.check(state, seat, order)

    def _checked_table_order(self, state: State, seat: str,
                             order: Move | Form | Face | Measure | Fire | Charge | ChargeHome | Stand | Evade | Feint
                             | ReserveFire | Return) -> DoiOrder:
        """The measured table's orders (17.2-17.4, ``measure``): each rule's own check."""
        match order:
            case Move():
                shooting_17_3.check_limber(state, order)  # guns with no horses go nowhere, whatever the ground
                return movement_17_4.check_move(state, seat, order)
            case Form():
                if state.phase != SETUP:  # before the battle (16.2) nothing has charged
                    charges_17_2.check_form_allowed(state, order)
                checked = movement_17_4.check_form(state, seat, order)
                shooting_17_3.check_limber(state, order)
                return checked
            case Face():
                charges_17_2.check_form_allowed(state, order)
                shooting_17_3.check_limber(state, order)
                return movement_17_4.check_face(state, seat, order)
            case Measure():
                return movement_17_4.check_measure(state, seat, order)
            case Fire():
                charges_17_2.check_fire_allowed(state, order)
                return seen_fire_17_3.check_fire(state, seat, order)
            case Charge():
                squadrons_17_2_6.check_remainder(state, order)  # 17.2.6: a squadron's remainder
                return charges_17_2.check_charge(state, seat, order)
            case ChargeHome():
                return charges_17_2.check_charge_home(state, seat, order)
            case Stand() | Evade():
                return charges_17_2.check_reaction(state, seat, order)
            case Feint():
                return charges_17_2.check_feint(state, seat, order)
            case ReserveFire():
                return charges_17_2.check_reserve(state, seat, order)
            case Return():
                return evading_17_4_16.check_return(state, seat, order)
        return order

    def _set_up(self, state: State, seat: str, order: SetUpOrder, rng: Rng) -> list[Event]:
        match order:
            case Staff():
                return staff_14.roll_staff(state, state.side(order.side or seat), rng)
            case Ready():
                return deployment_16.ready(state, order.side or seat, rng)
            case Hide():
                return deployment_16.hide(state, order, rng)
            case Offboard():
                return deployment_16.offboard(state, order, rng)
            case Cancel():
                return deployment_16.cancel(state, order)
            case Scout():
                return deployment_16.scout(state, state.unit(order.unit), rng)
            case _:
                unhandled(order)

    def _play(self, state: State, seat: str, order: PlayOrder, rng: Rng) -> list[Event]:
        match order:
            case Initiative():
                opening = initiative_17_1.initiative(state, rng)
                if not formations_12.measured(state):
                    return opening
                return [*opening, *squadrons_17_2_6.rejoin(state), *morale_17_2.morale_opens(state, rng)]
            case Next():
                return phases_17.next_step(state, rng)
            case End() | Objective() | Surrender():
                return victory_18.play(state, seat, order)
            case Reveal() | Dust():
                return self._hidden_units(state, order)
            case Loss() | Fate() | Promote():
                return self._losses(state, order, rng)
            case Morale() | Table() | Dispute() | Check():
                return self._rolls(state, seat, order, rng)
            case Rally() | Attach() | Detach():
                return self._morale_and_staff(state, order, rng)
            case Form() if state.phase == SETUP:  # 16.2: how a unit is set out (12.1)
                return movement_17_4.set_out_form(state, order)
            case Move() | Form() | Face() | Measure() | Fire() | Charge() | ChargeHome():
                done = self._table(state, seat, order, rng)
                if not isinstance(order, Move | Form | Face):
                    return done
                forced = isinstance(order, Move) and order.forced
                return [*done, *morale_17_2.after_move(state, state.unit(order.unit), forced)]
            case Stand() | Evade() | Feint() | ReserveFire() | Return():
                return self._reactions(state, order, rng)
            case Dismount() | Mount() | SquadronCharge() | GoToGround() | Fortify() | Demolish() | Clear() | Pontoon():
                return self._unit_action(state, order, rng)
            case _:
                unhandled(order, hint="See the help for the orders.")

    @staticmethod
    def _rolls(state: State, seat: str, order: Morale | Table | Dispute | Check, rng: Rng) -> list[Event]:
        """The dice the players roll on the book's tests and tables (17.2, reference sheets, 3.4, 15)."""
        match order:
            case Morale():
                return morale_17_2.morale_test(state, order, rng)
            case Table():
                return reference_sheets_17.roll_table(order, rng)
            case Dispute():
                return disputes_3_4.dispute(state, seat, order, rng)
            case Check():
                return checks_15.roll_check(state, order, rng)

    @staticmethod
    def _unit_action(state: State, order: UnitAction, rng: Rng) -> list[Event]:
        """Carry out a checked single-unit action (``_checked_unit_action``)."""
        match order:
            case Demolish():
                return engineers_11.demolish(state, order, rng)
            case Clear():
                return engineers_11.clear(state, order)
            case Pontoon():
                return engineers_11.pontoon(state, order)
            case Dismount() | Mount():
                changed = dismounting_9_1.carry_out(state, order)
                return [*changed, *morale_17_2.after_move(state, state.unit(order.unit), False)]
            case SquadronCharge():
                return squadrons_17_2_6.squadron_charge(state, order, rng)
            case GoToGround():
                return morale_17_2.go_to_ground(state, order)
            case Fortify():
                return cover_17_5_6.fortify(state, order)

    def _hidden_units(self, state: State, order: Reveal | Dust) -> list[Event]:
        """Hidden troops placed by their owner (16.4), or an off-board brigade arriving (16.5)."""
        if isinstance(order, Reveal):
            return deployment_16.reveal(state, state.unit(order.unit))
        return deployment_16.dust(state, order)

    def _losses(self, state: State, order: Loss | Fate | Promote, rng: Rng) -> list[Event]:
        """Losses and fates recorded by hand (17.5, 18.2), routs (17.4.14) and field promotion (14.3)."""
        match order:
            case Loss():
                return losses_17_5.loss(state, state.unit(order.unit), order.stands)
            case Fate(fate="rout") if formations_12.measured(state):
                return routing_17_4_14.rout_by_hand(state, state.unit(order.unit))
            case Fate():
                return losses_17_5.fate(state, state.unit(order.unit), order)
            case Promote():
                return staff_14.promote(state, order, rng)

    def _morale_and_staff(self, state: State, order: Rally | Attach | Detach, rng: Rng) -> list[Event]:
        """Rally tests (17.2.11) and Generals attaching to units (14)."""
        match order:
            case Rally():
                return morale_17_2.rally(state, state.unit(order.unit), rng)
            case Attach():
                return staff_14.attach(state, order)
            case Detach():
                return staff_14.detach(state, order)

    def _table(self, state: State, seat: str, order: Move | Form | Face | Measure | Fire | Charge | ChargeHome,
               rng: Rng) -> list[Event]:
        """The measured table's orders (17.2-17.4 and ``measure``)."""
        match order:
            case Charge():
                return charges_17_2.charge(state, order, rng)
            case ChargeHome():
                return charges_17_2.charge_home(state, order, rng)
            case Fire():
                return seen_fire_17_3.fire(state, order, rng)
            case Move():
                start = dataclasses.replace(state.unit(order.unit))
                moved = movement_17_4.move(state, order)
                seen_fire_17_3.note_move(state, start, order)  # 17.3: whose arcs it passed through
                return moved
            case Form():
                return movement_17_4.form(state, order)
            case Face():
                return movement_17_4.face(state, order)
            case Measure():
                return movement_17_4.measure(state, seat, order)

    def _reactions(self, state: State, order: Stand | Evade | Feint | ReserveFire | Return, rng: Rng) -> list[Event]:
        """Answers to charges and their by-orders (17.2.2, 17.3.1, 17.4.12, 17.4.16)."""
        match order:
            case Stand() | Evade():
                return charges_17_2.react(state, order, rng)
            case Feint():
                return charges_17_2.feint(state, order)
            case ReserveFire():
                return charges_17_2.reserve(state, order)
            case Return():
                return evading_17_4_16.come_back(state, order)

    def view(self, state: State, seat: str | None) -> View:
        return view.view(state, seat)

    def preview_overlays(self, state: State, seat: str, moved: frozenset[str]) -> list[Overlay]:
        return view.preview_overlays(state, seat, moved)

    def outcome(self, state: State) -> Outcome | None:
        return victory_18.outcome(state)

    def summary(self, state: State) -> list[str]:
        return view.status(state)

    def standing(self, state: State) -> list[str]:
        """A battle stopped by /game end is counted as 18.2 would count it at that moment."""
        if state.phase in (SETUP, OVER):
            return []
        counted = victory_18.result(state)
        return [f"Had the battle ended here (18.2): {counted.reason}", *counted.details]

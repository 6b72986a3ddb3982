"""A class's printing plan: its solids arranged on printer plates (one 3MF per plate), the
plates shared among the printers, and the time each takes.

Who shares plates: every maze of a batch whose job asks for the ``plates`` format, grouped by
the printer it is planned for (bed, nozzle, number of printers, skirt room, spacing and slot):
the pupils of one job with ``names``, or a class server's jobs of one pupil each, alike. A job's
fleet (printers of several kinds) first shares its mazes among the kinds (:func:`share_fleet`),
and each kind is then a printer as above. With a slot (``print.slot``), each plate prints within
it (:attr:`PlatePrinter.plate_cap`).

Steps (the batch runs them, :mod:`laby3d.batch`):

1. :func:`plan_groups`: per printer, the solids' footprints (outer size, mm) arranged on plates
   (:mod:`laby3d.geometry.plates`), weighed by the solids' own print times;
2. :func:`render_plate`, in a worker: the mazes' files' text → their solids → one 3MF (each maze
   an object named after its pupil, already where it lies on the bed); :func:`plate_time` from
   the mazes' own estimates;
3. the plates shared among the printers (chosen with the arrangement: the solids' own print
   times, longest first to the least busy printer) and the printers' hours;
4. :func:`plan_text`: the plan as the teacher reads it ("Plate 1 (mini 1): Ana, Ben — about
   4 h 10 min").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from laby3d.errors import InternalError
from laby3d.geometry.plates import Arrangement, Piece, arrange, holds
from laby3d.i18n.formatting import colon, duration_text, number_text
from laby3d.values import OVERNIGHT_SECONDS, slot_seconds

if TYPE_CHECKING:
    from laby3d.options.job import Job

#: The format that asks for plates.
PLATES = "plates"
#: Time a slot keeps for taking the last plate off and starting the next (heating included), s.
PLATE_CHANGE_SECONDS = 5 * 60


@dataclass(frozen=True, kw_only=True)
class PlatePrinter:
    """What a group of solids is planned for: the bed's name and size (mm), how many such
    printers, the room kept free along the bed's edges and between solids, the nozzle (mm) and
    the timetable's slot (s), if any."""

    name: str
    bed: tuple[float, float, float]
    printers: int
    skirt_room: float
    spacing: float
    nozzle: float
    slot: int | None = None  # the longest a plate may print, s (print.slot)

    @classmethod
    def of(cls, job: Job, kind: str | None = None) -> PlatePrinter:
        """The printer ``job`` plans its plates for (the job is checked: it names a bed), or the
        ``kind`` of its fleet."""
        from laby3d.printability import PRINTERS

        settings = job.print.print_settings()
        if kind is not None:
            name, size, count = kind, PRINTERS[kind], (job.print.fleet or {})[kind]
        else:
            bed = settings.bed_size()
            if bed is None:  # Job.check refuses it
                raise InternalError(f"job {job.name!r} asks for plates without a printer or bed")
            name, size, count = bed.name, bed.size, job.print.printers
        return cls(
            name=name,
            bed=size,
            printers=count,
            skirt_room=settings.skirt_room,
            spacing=job.print.plate_spacing,
            nozzle=settings.nozzle,
            slot=None if job.print.slot is None else slot_seconds(job.print.slot),
        )

    @property
    def plate_cap(self) -> float | None:
        """The most a plate may carry by laby3d's estimate, s, so that it prints within the slot
        by PrusaSlicer's too: the slot less :data:`PLATE_CHANGE_SECONDS`, times the lowest ratio
        of the estimate to PrusaSlicer's measured for this printer (:attr:`TimeModel.fitted`);
        None without a slot."""
        from laby3d.print_time import time_model

        if self.slot is None:
            return None
        model = time_model(self.name, self.nozzle)
        if model is None:  # Job.check refuses it
            raise InternalError(f"a slot is planned for {self.name}, which has no time model")
        return (self.slot - PLATE_CHANGE_SECONDS) * model.fitted[0]


@dataclass(frozen=True, kw_only=True)
class PlateMaze:
    """A maze to put on a plate: what the plan calls it, its job (with its own label), its key in
    the batch (folder, file stem) and its own print time estimate (s, None without one; on each
    kind of a fleet in ``seconds_on``)."""

    name: str
    job: Job
    key: tuple[str, str]
    seconds: float | None = None
    seconds_on: dict[str, float] = field(default_factory=dict)  # on each printer of the job's fleet, s

    @property
    def layers(self) -> int:
        """Layers its solid takes (typical slicer settings)."""
        from laby3d.filament import layer_count

        return layer_count(self.job.print.fabrication().height)

    def piece(self, margin: float | None = None) -> Piece:
        """Its footprint (the solid's outer width and depth, mm; with ``margin`` mm instead of
        its own), weighed by its print time."""
        from laby3d.geometry.plan import plate_size

        spec = self.job.print if margin is None else replace(self.job.print, margin=margin)
        fab, maze = spec.fabrication(), self.job.maze
        size = plate_size(maze.shape, *maze.size(), fab)  # a board, or a theta maze's disc by its bounding box
        return Piece(name=self.name, size=size, weight=self.seconds)

    def check_solid(self, margin: float) -> None:
        """Check its solid with ``margin`` mm instead of its own (its label must fit under the
        base or beside the walls, no markers); raises :class:`laby3d.errors.Laby3dError`."""
        from laby3d.mesh.solid import check_solid

        spec = replace(self.job.print, margin=margin)
        fab, maze = spec.fabrication(), self.job.maze
        check_solid(spec.solid_options(self.job.label), fab, maze.shape, maze.size())


@dataclass(frozen=True, kw_only=True)
class PrinterGroup:
    """The mazes planned for one printer, arranged on its plates; ``label`` names the printer in
    file names and the plan (its bed's name, made unique in the batch)."""

    label: str
    printer: PlatePrinter
    mazes: list[PlateMaze]
    arrangement: Arrangement

    def file_name(self, plate: int) -> str:
        """``mini-plate-03.3mf`` for plate index 2 (numbers padded so that files sort)."""
        width = len(str(len(self.arrangement.plates)))
        return f"{self.label}-plate-{plate + 1:0{width}d}.3mf"


def plan_groups(mazes: list[PlateMaze]) -> list[PrinterGroup]:
    """The mazes grouped by printer (in order of first appearance; a fleet's shared among its
    kinds, :func:`share_fleet`) and arranged on its plates."""
    groups: dict[PlatePrinter, list[PlateMaze]] = {}
    fleets: dict[tuple[PlatePrinter, ...], list[PlateMaze]] = {}
    for maze in mazes:
        if maze.job.print.fleet:
            fleets.setdefault(fleet_printers(maze.job), []).append(maze)
        else:
            groups.setdefault(PlatePrinter.of(maze.job), []).append(maze)
    for printers, members in fleets.items():
        for printer, share in share_fleet(printers, members).items():
            groups.setdefault(printer, []).extend(share)
    found: list[PrinterGroup] = []
    labels: set[str] = set()
    for printer, members in groups.items():
        label = printer.name
        while label in labels:
            label += "_"
        labels.add(label)
        arrangement = arrange(
            [maze.piece() for maze in members],
            printer.bed[:2],
            skirt_room=printer.skirt_room,
            spacing=printer.spacing,
            printers=printer.printers,
            cap=printer.plate_cap,
        )
        found.append(PrinterGroup(label=label, printer=printer, mazes=members, arrangement=arrangement))
    return found


def fleet_printers(job: Job) -> tuple[PlatePrinter, ...]:
    """The printers of ``job``'s fleet, a :class:`PlatePrinter` per kind (its bed, its count)."""
    return tuple(PlatePrinter.of(job, kind) for kind in job.print.fleet or {})


def share_fleet(printers: tuple[PlatePrinter, ...], mazes: list[PlateMaze]) -> dict[PlatePrinter, list[PlateMaze]]:
    """The mazes shared among a fleet's printers so that the class finishes soonest: the longest
    first (by its longest time on any kind) to the printer, of any kind whose bed takes it, that
    would then finish first, each maze timed on that printer's kind (its own estimate there);
    then each kind's mazes go on that kind's plates (:func:`plan_groups`). A maze no bed takes
    goes to the first kind, whose plan says so."""
    machines = [printer for printer in printers for _ in range(printer.printers)]
    busy = [0.0] * len(machines)
    shared: dict[PlatePrinter, list[PlateMaze]] = {printer: [] for printer in printers}
    for maze in sorted(mazes, key=lambda maze: -max(maze.seconds_on.values(), default=0.0)):
        size = maze.piece().size
        able = [
            k
            for k, printer in enumerate(machines)
            if printer.name in maze.seconds_on
            and holds(size, printer.bed[:2], skirt_room=printer.skirt_room, spacing=printer.spacing)
        ]
        if not able:
            shared[printers[0]].append(maze)
            continue
        chosen = min(able, key=lambda k: (busy[k] + maze.seconds_on[machines[k].name], k))
        busy[chosen] += maze.seconds_on[machines[chosen].name]
        shared[machines[chosen]].append(replace(maze, seconds=maze.seconds_on[machines[chosen].name]))
    return {printer: members for printer, members in shared.items() if members}


def margin_advice(group: PrinterGroup) -> dict[str, Any] | None:
    """What ``print.margin 0`` would give when it needs fewer plates: the plates and solids a
    plate then (each maze re-checked with margin 0: its label must fit under the base or beside
    the walls, and no markers); None when it would not help or a maze would refuse it."""
    from laby3d.errors import Laby3dError

    if all(maze.job.print.margin == 0 for maze in group.mazes):
        return None
    pieces = [maze.piece(margin=0.0) for maze in group.mazes]
    printer = group.printer
    flat = arrange(
        pieces,
        printer.bed[:2],
        skirt_room=printer.skirt_room,
        spacing=printer.spacing,
        printers=printer.printers,
        cap=printer.plate_cap,
    )
    if printer.slot is not None:  # a slot's plates are the fewest that fit it
        fewer = len(flat.plates) < len(group.arrangement.plates)
    else:
        fewer = flat.fewest < group.arrangement.fewest
    if flat.left_out or not fewer:
        return None
    for maze in group.mazes:
        try:
            maze.check_solid(0.0)
        except Laby3dError:
            return None
    return {
        "margin_mm": 0,
        "plates": len(flat.plates),
        "per_plate": per_plate_text([len(spots) for spots in flat.plates]),
        "labels_under": any(maze.job.label is not None for maze in group.mazes),
    }


@dataclass(frozen=True, kw_only=True)
class PlateTask:
    """One plate to render (picklable, for a worker): its title, printer name, and each object's
    name, job, maze file text and placement (:meth:`laby3d.geometry.plates.Spot.transform`)."""

    title: str
    printer: str
    objects: list[tuple[str, Job, str, tuple[float, ...]]]


def plate_tasks(group: PrinterGroup, texts: dict[tuple[str, str], str]) -> list[PlateTask]:
    """A task per plate of ``group``; ``texts`` holds each maze's file text by key."""
    count = len(group.arrangement.plates)
    return [
        PlateTask(
            title=f"laby3d plate {index + 1} of {count}, {group.label}",
            printer=group.printer.name,
            objects=[
                (spot.piece.name, group.mazes[spot.index].job, texts[group.mazes[spot.index].key], spot.transform())
                for spot in spots
            ],
        )
        for index, spots in enumerate(group.arrangement.plates)
    ]


def render_plate(task: PlateTask) -> bytes:
    """The plate's 3MF (each maze an object of its own, with its parts, as its own 3MF has them)
    from the mazes' file text; the solids are those of the mazes' own files."""
    from laby3d.export.meshes import PlacedObject, objects_3mf_bytes
    from laby3d.maze.mazefile import maze_from_json
    from laby3d.pipeline import RenderContext

    placed = [
        PlacedObject(name=name, solid=RenderContext(maze_from_json(text), job).solid, transform=transform)
        for name, job, text, transform in task.objects
    ]
    return objects_3mf_bytes(placed, task.title)


def plate_time(group: PrinterGroup, plate: int) -> float | None:
    """A plate's print time, s, from its solids' own estimates (:func:`laby3d.print_time.plate_seconds`);
    None when one of them has none (no time model for the printer)."""
    from laby3d.print_time import plate_seconds

    mazes = [group.mazes[spot.index] for spot in group.arrangement.plates[plate]]
    seconds = [maze.seconds for maze in mazes]
    if None in seconds:
        return None
    return plate_seconds([value for value in seconds if value is not None], [maze.layers for maze in mazes])


def group_record(
    group: PrinterGroup, files: list[dict[str, Any]], advice: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The manifest's record of one printer's plates: ``files`` are the written plates (file,
    sha256, bytes, or error) in plate order; adds each plate's mazes, print time and printer
    (1-based, as arranged: :mod:`laby3d.geometry.plates`) and each printer's plates and hours,
    and ``advice`` (:func:`margin_advice`)."""
    plates, printer_of = group.arrangement.plates, group.arrangement.printers
    records = []
    for index, (spots, entry) in enumerate(zip(plates, files, strict=True)):
        seconds = plate_time(group, index)
        records.append(
            {
                "plate": index + 1,
                **entry,
                "mazes": [spot.piece.name for spot in spots],
                "print_seconds": None if seconds is None else round(seconds),
                "printer": printer_of[index] + 1,
            }
        )
    per_printer = []
    for printer in range(group.printer.printers):
        own = [record for record in records if record["printer"] == printer + 1]
        times: list[int | None] = [record.get("print_seconds") for record in own]
        total = None if None in times else sum(time for time in times if time is not None)
        per_printer.append(
            {
                "printer": printer + 1,
                "plates": [record["plate"] for record in own],
                "mazes": sum(len(record["mazes"]) for record in own),
                "print_seconds": total,
            }
        )
    return {
        "printer": group.label,
        "bed_mm": list(group.printer.bed),
        "printers": group.printer.printers,
        "skirt_room_mm": group.printer.skirt_room,
        "spacing_mm": group.printer.spacing,
        "mazes": sum(len(spots) for spots in plates),
        "fewest_plates": group.arrangement.fewest,
        "area_bound_plates": group.arrangement.area_bound,
        "plates": records,
        "per_printer": per_printer,
        "left_out": [
            {"maze": group.mazes[index].name, "size_mm": list(group.mazes[index].piece().size)}
            for index in group.arrangement.left_out
        ],
        "advice": advice,
        "slot": _slot_record(group, per_printer),
    }


def _slot_record(group: PrinterGroup, per_printer: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The timetable's part of a group's record: the slot and what a plate may carry within it
    (s), the slots each printer needs (its plates, one a slot), and the mazes longer than the
    slot alone; None without a slot."""
    printer, cap = group.printer, group.printer.plate_cap
    if printer.slot is None or cap is None:
        return None
    return {
        "seconds": printer.slot,
        "overnight": printer.slot == OVERNIGHT_SECONDS,
        "plate_change_seconds": PLATE_CHANGE_SECONDS,
        "plate_cap_seconds": round(cap),
        "estimate_ratio": round(cap / (printer.slot - PLATE_CHANGE_SECONDS), 2),
        "slots": max((len(record["plates"]) for record in per_printer), default=0),
        "longer": [
            {"maze": group.mazes[index].name, "print_seconds": round(group.mazes[index].seconds or 0)}
            for index in group.arrangement.over_cap
        ],
    }


#: The plan's words: (English, French).
_WORDS = {
    "title": ("Printing plan", "Plan d’impression"),
    "plate": ("plate", "plaque"),
    "plates": ("plates", "plaques"),
    "printer": ("printer", "imprimante"),
    "printers": ("printers", "imprimantes"),
    "solid": ("solid", "pièce"),
    "solids": ("solids", "pièces"),
    "on": ("on", "sur"),
    "per_plate": ("a plate", "par plaque"),
    "bound": ("at least {bound} by their area", "au moins {bound} d’après leur surface"),
    "shared": (
        "{fewest} at fewest, {plates} to share them evenly among the printers",
        "{fewest} au minimum, {plates} pour les répartir entre les imprimantes",
    ),
    "unknown": (
        "time unknown (no time model for this printer)",
        "durée inconnue (pas de modèle de durée pour cette imprimante)",
    ),
    "left_out": ("not on any plate", "sur aucune plaque"),
    "too_large": (
        "{width} × {depth} mm plus {room} mm skirt room per side fits no {bed} plate, turned or not",
        "{width} × {depth} mm plus {room} mm de place pour la jupe de chaque côté ne tient sur aucune plaque {bed}, "
        "tournée ou non",
    ),
    "failed": ("not made", "non faite"),
    "advice": (
        "with print.margin 0, {per_plate} fit a plate: {plates} instead of {now}",
        "avec print.margin 0, {per_plate} tiennent sur une plaque : {plates} au lieu de {now}",
    ),
    "slot": (
        "{slot}: a plate carries at most {cap} by laby3d's estimate (the slot less {change} for the plate change, "
        "times {ratio}, the estimate's lowest ratio to PrusaSlicer's): {slots} on {printers}",
        "{slot} : une plaque porte au plus {cap} d’après l’estimation de laby3d (le créneau moins {change} pour "
        "changer de plaque, fois {ratio}, le plus petit rapport mesuré de l’estimation à celle de PrusaSlicer) : "
        "{slots} sur {printers}",
    ),
    "lesson": ("slot of {minutes}", "créneau de {minutes}"),
    "overnight": ("overnight ({minutes})", "la nuit ({minutes})"),
    "slots_count": ("slots", "créneaux"),
    "nights_count": ("nights", "nuits"),
    "longer": (
        "{count} of the solids each take longer than the slot ({names}; the shortest {time}): each has a plate of "
        "its own; print them overnight, or make them smaller (fewer rows and columns, lower walls)",
        "{count} des pièces prennent chacune plus que le créneau ({names} ; la plus courte {time}) : chacune a sa "
        "plaque ; les imprimer la nuit, ou les faire plus petites (moins de lignes et de colonnes, murs plus bas)",
    ),
    "labels_under": (" (the names engraved under the base)", " (les noms gravés sous le plateau)"),
    "open": (
        "Open each plate's 3MF in PrusaSlicer: the solids are placed already (do not arrange again).",
        "Ouvrir le 3MF de chaque plaque dans PrusaSlicer : les pièces sont déjà placées (ne pas réarranger).",
    ),
}


def _word(key: str, lang: str) -> str:
    return _WORDS[key][1 if lang == "fr" else 0]


def _counted(number: int, thing: str, lang: str) -> str:
    """``1 plate``, ``3 plates`` (``things`` in :data:`_WORDS` is the plural)."""
    return f"{number} {_word(thing if number == 1 else thing + 's', lang)}"


def per_plate_text(counts: list[int]) -> str:
    """How many solids a plate holds: ``4`` or ``3–4``."""
    low, high = min(counts, default=0), max(counts, default=0)
    return f"{high}" if low == high else f"{low}–{high}"


def group_heading(group: dict[str, Any], lang: str = "en") -> str:
    """``mini (180 × 180 mm), 2 printers: 8 solids on 2 plates, 4 a plate (at least 2 by their
    area)`` for a manifest's group (:func:`group_record`)."""
    bed = group["bed_mm"]
    count = len(group["plates"])
    per_plate = per_plate_text([len(plate["mazes"]) for plate in group["plates"]])
    notes = [_word("bound", lang).format(bound=group["area_bound_plates"])]
    if count > group["fewest_plates"]:
        notes.append(_word("shared", lang).format(fewest=group["fewest_plates"], plates=count))
    return (
        f"{group['printer']} ({number_text(bed[0], lang)} × {number_text(bed[1], lang)} mm), "
        f"{colon(_counted(group['printers'], 'printer', lang), lang)} {_counted(group['mazes'], 'solid', lang)} "
        f"{_word('on', lang)} {_counted(count, 'plate', lang)}, {per_plate} {_word('per_plate', lang)} "
        f"({'; '.join(notes)})"
    )


def plate_line(group: dict[str, Any], plate: dict[str, Any], lang: str = "en") -> str:
    """``Plate 1 (mini 1): Ana, Ben — about 2 h 40 min — mini-plate-1.3mf``."""
    name = f"{_word('plate', lang).capitalize()} {plate['plate']} ({group['printer']} {plate['printer']})"
    state = f" — {duration_text(plate['print_seconds'], lang)}" if plate.get("print_seconds") is not None else ""
    if plate.get("error"):
        state = f" — {_word('failed', lang)}: {plate['error']}"
    return f"{colon(name, lang)} {', '.join(plate['mazes'])}{state} — {plate['file'].rsplit('/', 1)[-1]}"


def printer_line(group: dict[str, Any], printer: dict[str, Any], lang: str = "en") -> str:
    """``mini 1: plates 1, 3 (8 solids) — about 5 h 15 min``."""
    numbers = ", ".join(str(number) for number in printer["plates"]) or "—"
    which = _word("plates" if len(printer["plates"]) > 1 else "plate", lang)
    seconds = printer.get("print_seconds")
    when = duration_text(seconds, lang) if seconds is not None else _word("unknown", lang)
    name = f"{group['printer']} {printer['printer']}"
    return f"{colon(name, lang)} {which} {numbers} ({_counted(printer['mazes'], 'solid', lang)}) — {when}"


def left_out_line(group: dict[str, Any], left: dict[str, Any], lang: str = "en") -> str:
    """``not on any plate: Ana (200 × 120 mm plus 3 mm skirt room per side fits no mini plate…)``."""
    width, depth = left["size_mm"]
    reason = _word("too_large", lang).format(
        width=number_text(width, lang),
        depth=number_text(depth, lang),
        room=number_text(group["skirt_room_mm"], lang),
        bed=group["printer"],
    )
    return f"{colon(_word('left_out', lang), lang)} {left['maze']} ({reason})"


def slot_lines(group: dict[str, Any], lang: str = "en") -> list[str]:
    """``slot of 55 min: a plate carries at most 40 min …: 7 slots on 2 printers`` and a line per
    maze longer than the slot, when the plan has a slot."""
    slot = group.get("slot")
    if not slot:
        return []
    minutes = _minutes_text(slot["seconds"])
    named = _word("overnight" if slot["overnight"] else "lesson", lang).format(minutes=minutes)
    slots = f"{slot['slots']} {_word('nights_count' if slot['overnight'] else 'slots_count', lang)}"
    if slot["slots"] == 1:
        slots = slots[:-1]  # one slot, one night: the singular is the plural less its s in both languages
    text = _word("slot", lang).format(
        slot=named,
        cap=_minutes_text(slot["plate_cap_seconds"]),
        change=_minutes_text(slot["plate_change_seconds"]),
        ratio=number_text(slot["estimate_ratio"], lang),
        slots=slots,
        printers=_counted(group["printers"], "printer", lang),
    )
    lines = [text[0].upper() + text[1:]]
    if slot["longer"]:
        names = [item["maze"] for item in slot["longer"]]
        lines.append(
            _word("longer", lang).format(
                count=len(names),
                names=", ".join(names) if len(names) <= 3 else f"{', '.join(names[:3])}…",
                time=duration_text(min(item["print_seconds"] for item in slot["longer"]), lang),
            )
        )
    return lines


def _minutes_text(seconds: float) -> str:
    """``55 min``, ``1 h 30 min`` (to the minute, not an estimate: no "about")."""
    hours, minutes = divmod(int(seconds // 60), 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def advice_line(group: dict[str, Any], lang: str = "en") -> str | None:
    """``with print.margin 0, 4 fit a plate: 6 plates instead of 24 (…)``, when it helps."""
    advice = group.get("advice")
    if not advice:
        return None
    text = _word("advice", lang).format(
        per_plate=advice["per_plate"],
        plates=_counted(advice["plates"], "plate", lang),
        now=len(group["plates"]),
    )
    return text + (_word("labels_under", lang) if advice["labels_under"] else "")


def plan_text(groups: list[dict[str, Any]], lang: str = "en") -> str:
    """The plan the teacher reads, from the manifest's ``plates`` groups (:func:`group_record`):
    per printer, the plates with their solids, time and file, each printer's plates and hours,
    and the solids no plate holds."""
    lines = [_word("title", lang), ""]
    for group in groups:
        lines.append(group_heading(group, lang))
        lines += ["  " + line for line in slot_lines(group, lang)]
        lines += ["  " + plate_line(group, plate, lang) for plate in group["plates"]]
        lines += ["  " + printer_line(group, printer, lang) for printer in group["per_printer"]]
        lines += ["  " + left_out_line(group, left, lang) for left in group["left_out"]]
        advice = advice_line(group, lang)
        lines += [] if advice is None else ["  " + advice]
        lines.append("")
    lines.append(_word("open", lang))
    return "\n".join(lines) + "\n"

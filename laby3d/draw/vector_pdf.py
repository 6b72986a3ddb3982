"""A small vector PDF writer: pages of lines, polylines, filled shapes, RGB images and text.

Enough for documents made of many strokes and some text (the lesson, worksheets and answer
keys, the handout), written straight into PDF content streams: numbers formatted in one go per
drawing call, no figure objects. Text is DejaVu Sans (regular, bold, oblique: the files
matplotlib ships), laid out with the font's advances and kerning (:mod:`laby3d.geometry.text`)
and embedded as a subset of the glyphs used (fontTools), so any script the font covers prints
as it is, and the text can be searched and copied (a ToUnicode map). Pages are in points (1/72
inch), origin at the top left, y downwards (converted to PDF's bottom-left origin on writing).
The file holds no date or producer: the same pages give the same bytes.

>>> page = Page(width=100, height=50)
>>> page.lines(np.array([[[10, 10], [90, 10]]]), colour=(0, 0, 0), width=1)
>>> page.text(10, 40, "Entrée × 2 · Nguyễn", size=12)
>>> data = pdf_document([page])
>>> data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
True
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from laby3d.errors import InternalError
from laby3d.geometry.text import dejavu_sans

#: Line cap and join styles by matplotlib's names (PDF's ``J`` and ``j`` operators).
CAPS = {"butt": 0, "round": 1, "projecting": 2}
JOINS = {"miter": 0, "round": 1, "bevel": 2}
Align = Literal["left", "centre", "right"]
#: A Bézier quarter circle's control distance, in radii.
_KAPPA = 0.5522847498


def _path(flat: tuple[float, ...], number: str) -> bytes:
    """A path through the points ``flat`` (x0, y0, x1, y1, ...): a move, then lines."""
    move, line = f"{number} {number} m ", f" {number} {number} l"
    return ((move + line * (len(flat) // 2 - 1)) % flat).encode()


def text_width(content: str, size: float, *, face: str = "regular") -> float:
    """Width (points) of ``content`` set on one line at ``size`` points in DejaVu Sans ``face``."""
    return dejavu_sans(face).run(content)[2] * size


@dataclass
class Page:
    """One page being drawn: ``width`` × ``height`` points; origin at the top left, y down."""

    width: float
    height: float
    _content: list[bytes] = field(default_factory=list)
    _images: list[np.ndarray] = field(default_factory=list)
    #: Glyphs shown, per face: glyph index -> the text it stands for.
    _glyphs: dict[str, dict[int, str]] = field(default_factory=dict)

    def _xy(self, points: np.ndarray) -> np.ndarray:
        flipped = np.asarray(points, dtype=float).reshape(-1, 2).copy()
        flipped[:, 1] = self.height - flipped[:, 1]
        return flipped

    def image(self, pixels: np.ndarray, *, x: float, y: float, width: float, height: float) -> None:
        """Draw ``(rows, cols, 3)`` uint8 RGB ``pixels`` on the box at (``x``, ``y``) (top left,
        points), each pixel a sharp rectangle (no smoothing)."""
        if pixels.ndim != 3 or pixels.shape[2] != 3 or pixels.dtype != np.uint8:
            raise InternalError(f"an image must be (rows, cols, 3) uint8, got {pixels.shape} {pixels.dtype}")
        placed = (width, height, x, self.height - y - height, len(self._images))
        self._images.append(np.ascontiguousarray(pixels))
        self._content.append(b"q %.3f 0 0 %.3f %.3f %.3f cm /Im%d Do Q\n" % placed)

    def lines(
        self,
        segments: np.ndarray,
        *,
        colour: tuple[float, float, float],
        width: float,
        cap: str = "butt",
        dash: tuple[float, float] | None = None,
    ) -> None:
        """Stroke ``(k, 2, 2)`` segments (end points (x, y) in points), ``width`` points wide,
        in RGB ``colour`` (0..1); ``dash`` is (on, off) in points."""
        if not len(segments):
            return
        stroke = b"%.3f %.3f %.3f RG %.3f w %d J " % (*colour, width, CAPS[cap])
        stroke += (b"[%.3f %.3f] 0 d\n" % dash) if dash else b"[] 0 d\n"
        flat = tuple(self._xy(segments).ravel().tolist())
        path = (" ".join(["%.2f %.2f m %.2f %.2f l"] * len(segments)) % flat).encode()
        self._content.append(b"q " + stroke + path + b" S Q\n")

    def polyline(
        self,
        points: np.ndarray,
        *,
        colour: tuple[float, float, float],
        width: float,
        cap: str = "butt",
        join: str = "miter",
    ) -> None:
        """Stroke one line through ``(k, 2)`` points (points), ``width`` points wide."""
        if len(points) < 2:
            return
        flat = tuple(self._xy(points).ravel().tolist())
        path = _path(flat, "%.2f")
        style = b"%.3f %.3f %.3f RG %.3f w %d J %d j [] 0 d\n" % (*colour, width, CAPS[cap], JOINS[join])
        self._content.append(b"q " + style + path + b" S Q\n")

    def polygon(self, points: np.ndarray, *, colour: tuple[float, float, float]) -> None:
        """Fill the polygon of ``(k, 2)`` corners (points) with ``colour``."""
        flat = tuple(self._xy(points).ravel().tolist())
        path = _path(flat, "%.3f")
        self._content.append(b"q %.3f %.3f %.3f rg " % colour + path + b" h f Q\n")

    def dot(self, x: float, y: float, radius: float, *, colour: tuple[float, float, float]) -> None:
        """Fill a disc of ``radius`` points centred on (``x``, ``y``)."""
        cx, cy, r, k = x, self.height - y, radius, radius * _KAPPA
        path = b"%.3f %.3f m " % (cx + r, cy)
        for (x1, y1), (x2, y2), (x3, y3) in (
            ((cx + r, cy + k), (cx + k, cy + r), (cx, cy + r)),
            ((cx - k, cy + r), (cx - r, cy + k), (cx - r, cy)),
            ((cx - r, cy - k), (cx - k, cy - r), (cx, cy - r)),
            ((cx + k, cy - r), (cx + r, cy - k), (cx + r, cy)),
        ):
            path += b"%.3f %.3f %.3f %.3f %.3f %.3f c " % (x1, y1, x2, y2, x3, y3)
        self._content.append(b"q %.3f %.3f %.3f rg " % colour + path + b"f Q\n")

    def text(
        self,
        x: float,
        y: float,
        content: str,
        *,
        size: float,
        bold: bool = False,
        oblique: bool = False,
        colour: tuple[float, float, float] = (0.0, 0.0, 0.0),
        align: Align = "left",
    ) -> None:
        """Write one line of ``content``, ``size`` points high, its baseline at ``y`` and its
        start (``align`` left), middle or end at ``x`` (points)."""
        face = "bold" if bold else "oblique" if oblique else "regular"
        glyphs, kerns, width = dejavu_sans(face).run(content)
        x -= {"left": 0.0, "centre": width / 2, "right": width}[align] * size
        used = self._glyphs.setdefault(face, {})
        shown = []
        for char, index, kern in zip(content, glyphs, kerns, strict=True):
            used.setdefault(index, char)
            if kern:
                shown.append(b"> %.3f <" % (-kern * 1000))
            shown.append(b"%04X" % index)
        place = b"%.3f %.3f %.3f rg /%s %.3f Tf %.3f %.3f Td " % (
            *colour,
            face.encode(),
            size,
            x,
            self.height - y,
        )
        self._content.append(b"BT " + place + b"[<" + b"".join(shown) + b">] TJ ET\n")


def pdf_document(pages: Sequence[Page]) -> bytes:
    """The PDF file of ``pages`` (compressed streams; no date, producer or other metadata)."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]  # the page tree comes last

    def add(body: bytes) -> bytes:
        objects.append(body)
        return b"%d 0 R" % len(objects)

    def stream(dictionary: bytes, data: bytes) -> bytes:
        packed = zlib.compress(data, 6)
        return add(
            b"<< %s /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (dictionary, len(packed), packed)
        )

    shown: dict[str, dict[int, str]] = {}
    for page in pages:
        for face, glyphs in page._glyphs.items():
            for index, char in glyphs.items():
                shown.setdefault(face, {}).setdefault(index, char)
    fonts = b" ".join(
        b"/%s %s" % (face.encode(), _embedded_font(face, shown[face], add, stream)) for face in sorted(shown)
    )
    image_entry = b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8"
    kids = []
    for page in pages:
        images = b" ".join(
            b"/Im%d %s" % (index, stream(image_entry % (pixels.shape[1], pixels.shape[0]), pixels.tobytes()))
            for index, pixels in enumerate(page._images)
        )
        resources = b"<< /Font << %s >> /XObject << %s >> >>" % (fonts, images)
        content = stream(b"", b"".join(page._content))
        kids.append(
            add(
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources %s /Contents %s >>"
                % (page.width, page.height, resources, content)
            )
        )
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _embedded_font(
    face: str, glyphs: dict[int, str], add: Callable[[bytes], bytes], stream: Callable[[bytes, bytes], bytes]
) -> bytes:
    """The objects of DejaVu Sans ``face`` embedded with ``glyphs`` (index -> text): a Type 0
    font whose codes are the full font's glyph indices, a CIDToGIDMap to the subset's, widths,
    and a ToUnicode map, written with ``pdf_document``'s ``add`` and ``stream``. Returns the
    font's reference."""
    font = dejavu_sans(face)
    used = sorted(glyphs)
    data, new_index = font.subset(tuple(used))
    cid_to_gid = np.zeros(max(used) + 1, dtype=">u2")
    cid_to_gid[used] = [new_index[index] for index in used]
    tag = "".join(chr(65 + byte % 26) for byte in hashlib.sha256(repr((face, used)).encode()).digest()[:6])
    name = f"{tag}+{font.postscript_name}".encode()
    x0, y0, x1, y1 = (round(value * 1000) for value in font.bbox)
    descriptor = add(
        b"<< /Type /FontDescriptor /FontName /%s /Flags %d /FontBBox [%d %d %d %d] /ItalicAngle %d /Ascent %d "
        b"/Descent %d /CapHeight %d /StemV 80 /FontFile2 %s >>"
        % (
            name,
            32 + (64 if font.italic_angle else 0),
            x0,
            y0,
            x1,
            y1,
            round(font.italic_angle),
            round(font.ascent * 1000),
            round(font.descent * 1000),
            round(font.cap_height * 1000),
            stream(b"/Length1 %d" % len(data), data),
        )
    )
    widths = b" ".join(b"%d [%.3f]" % (index, font.advance(index) * 1000) for index in used)
    cid_font = add(
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /%s /CIDSystemInfo << /Registry (Adobe) /Ordering "
        b"(Identity) /Supplement 0 >> /FontDescriptor %s /W [%s] /CIDToGIDMap %s >>"
        % (name, descriptor, widths, stream(b"", cid_to_gid.tobytes()))
    )
    unicode_map = stream(b"", _to_unicode({index: glyphs[index] for index in used}))
    return add(
        b"<< /Type /Font /Subtype /Type0 /BaseFont /%s /Encoding /Identity-H /DescendantFonts [%s] /ToUnicode %s >>"
        % (name, cid_font, unicode_map)
    )


def _to_unicode(glyphs: dict[int, str]) -> bytes:
    """A ToUnicode CMap: each 2-byte code (a glyph index) to the text it stands for."""
    entries = [
        b"<%04X> <%s>" % (index, text.encode("utf-16-be").hex().upper().encode()) for index, text in glyphs.items()
    ]
    blocks = b"".join(
        b"%d beginbfchar\n%s\nendbfchar\n" % (len(chunk), b"\n".join(chunk))
        for chunk in (entries[i : i + 100] for i in range(0, len(entries), 100))
    )
    return (
        b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        b"/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        b"1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
        + blocks
        + b"endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    )

"""A small vector PDF writer: pages of straight lines, RGB images and text in Helvetica.

Enough for documents whose pages are made of many strokes and a few lines of text (the
lesson), written straight into PDF content streams: numbers formatted in one go per drawing
call, no figure objects, no font subsetting. Text uses the PDF standard fonts Helvetica and
Helvetica-Bold with the WinAnsi encoding, which every PDF reader provides, so nothing is
embedded; the text stays searchable and copyable. Pages are in points (1/72 inch), origin at
the top left, y downwards (converted to PDF's bottom-left origin on writing). The file holds no
date or producer: the same pages give the same bytes.

>>> page = Page(width=100, height=50)
>>> page.lines(np.array([[[10, 10], [90, 10]]]), colour=(0, 0, 0), width=1)
>>> page.text(10, 40, "Entrée × 2", size=12)
>>> data = pdf_document([page])
>>> data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
True
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from laby3d.errors import InternalError

#: The fonts a page can use: PDF standard fonts (never embedded), by resource name.
FONTS = {"F1": "Helvetica", "F2": "Helvetica-Bold"}
#: Advance width of every digit in Helvetica and Helvetica-Bold (em/1000, from their AFM).
DIGIT_WIDTH = 556
#: Line cap styles by matplotlib's names (PDF's ``J`` operator).
CAPS = {"butt": 0, "round": 1, "projecting": 2}


def _pdf_string(content: str) -> bytes:
    """``content`` as a PDF literal string in WinAnsi encoding (cp1252)."""
    try:
        raw = content.encode("cp1252")
    except UnicodeEncodeError as error:
        raise InternalError(f"{content!r} holds a character the PDF's fonts cannot show: {error.reason}") from None
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


@dataclass
class Page:
    """One page being drawn: ``width`` × ``height`` points; origin at the top left, y down."""

    width: float
    height: float
    _content: list[bytes] = field(default_factory=list)
    _images: list[np.ndarray] = field(default_factory=list)

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
        points = np.asarray(segments, dtype=float).reshape(-1, 2).copy()
        points[:, 1] = self.height - points[:, 1]
        stroke = b"%.3f %.3f %.3f RG %.3f w %d J " % (*colour, width, CAPS[cap])
        stroke += (b"[%.3f %.3f] 0 d\n" % dash) if dash else b"[] 0 d\n"
        path = (" ".join(["%.2f %.2f m %.2f %.2f l"] * len(segments)) % tuple(points.ravel().tolist())).encode()
        self._content.append(b"q " + stroke + path + b" S Q\n")

    def text(
        self,
        x: float,
        y: float,
        content: str,
        *,
        size: float,
        bold: bool = False,
        colour: tuple[float, float, float] = (0.0, 0.0, 0.0),
        centred: bool = False,
    ) -> None:
        """Write one line of ``content``, ``size`` points high, with its baseline's start at
        (``x``, ``y``) points, or its middle there when ``centred`` (digits only: their width is
        known)."""
        if centred:
            if not content.isdigit():
                raise InternalError(f"only digits can be centred, got {content!r}")
            x -= len(content) * DIGIT_WIDTH * size / 2000
        font = b"/F2" if bold else b"/F1"
        place = b"%.3f %.3f %.3f rg %s %.3f Tf %.3f %.3f Td " % (*colour, font, size, x, self.height - y)
        self._content.append(b"BT " + place + _pdf_string(content) + b" Tj ET\n")


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

    font_entry = b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>"
    fonts = b" ".join(b"/%s %s" % (key.encode(), add(font_entry % name.encode())) for key, name in FONTS.items())
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

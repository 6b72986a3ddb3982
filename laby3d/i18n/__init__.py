"""What a reader sees in their language: numbers and durations (:mod:`.formatting`) and error
sentences (:mod:`.messages`). The option fields' own French texts live beside the fields, in
:mod:`laby3d.options.translations`; the documents' sentences in :mod:`laby3d.draw.strings`.

A language is ``"en"`` or ``"fr"``; any other value reads as English.
"""

from laby3d.i18n.formatting import colon, duration_text, number_text, quantity_text
from laby3d.i18n.messages import Message, in_language

__all__ = ["Message", "colon", "duration_text", "in_language", "number_text", "quantity_text"]

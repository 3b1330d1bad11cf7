"""What the tagger reads of a note: control and format characters read as spaces.

A NUL byte, a bidirectional mark or a zero-width space between a title and a name
(``Dr.\\x00Smith``) is a token of its own to the tokenizer and a wall to the rules'
patterns, which hide the name from both. :func:`for_tagging` replaces such characters
(Unicode categories Cc and Cf that are not already white space) with spaces. It keeps
the length, so every offset into the cleaned text is the same offset into the note:
spans found on it are spans of the note, whose text is never changed.

>>> for_tagging("Dr.\\x00Smith\\u200b")
'Dr. Smith '
>>> text = "plain ASCII"; for_tagging(text) is text
True
"""

from __future__ import annotations

import re

import regex

# Cc and Cf characters that str.isspace does not already count as white space.
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")
_CONTROL = regex.compile(r"[\p{Cc}\p{Cf}--[\t\n\x0b\x0c\r\x1c-\x1f\x85]]", regex.V1)


def for_tagging(text: str) -> str:
    """``text`` with its control and format characters replaced by spaces (same length).

    The same string object comes back when there is nothing to replace (the common case).
    """
    if text.isascii():
        return _ASCII_CONTROL.sub(" ", text) if _ASCII_CONTROL.search(text) else text
    return _CONTROL.sub(" ", text) if _CONTROL.search(text) else text

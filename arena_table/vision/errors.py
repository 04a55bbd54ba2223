"""Typed failures of the vision package.

One base class, :class:`VisionError`; specific errors also inherit the builtin a
caller would naturally catch (``UnreadableImage`` is a ``ValueError``).

>>> issubclass(UnreadableImage, ValueError) and issubclass(UnreadableImage, VisionError)
True
"""

from __future__ import annotations


class VisionError(Exception):
    """Base class of every error raised by ``arena_table.vision``."""


class UnreadableImage(VisionError, ValueError):
    """An image file is missing, is not an image, or is truncated/corrupt.

    The message is one line naming the file and what was wrong, e.g.
    ``photo.jpg: not an image (cannot decode)``.
    """


class DiceNotFound(VisionError):
    """A caller required dice in a frame and the reader found none."""


class ModelMissing(VisionError, FileNotFoundError):
    """The shipped dice model weights could not be found or loaded."""


class BadFrame(VisionError, ValueError):
    """A frame passed to a reader is not an HxWx3 uint8 BGR array."""


class BadConfig(VisionError, ValueError):
    """A reader setting is out of its range (the message names the setting and the value)."""

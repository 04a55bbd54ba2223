"""The engine's one refusal: a rule forbids the event now (turned into the kernel's error at the edge)."""


class Illegal(Exception):
    """A rule of the book forbids the event; the message says which and why."""

"""Second look at unsure dice: test-time augmentation over the crop's four quarter turns.

A die whose best face is below ``DiceConfig.second_look`` is classified three more times, its crop
turned 90, 180 and 270 degrees, and the four readings are averaged (on the shared photos this reads
about 1 % more dice right; only the unsure dice pay for it).

The four readings are also votes. A die whose face changes with the way the crop is turned (two
readings say 2, two say 3) has no stable reading; it is the agreement test of TTA-based uncertainty
estimation (Ayhan & Berens, "Test-time data augmentation for estimation of heteroscedastic
aleatoric uncertainty in deep neural networks", MIDL 2018). ``DiceConfig.second_look_votes``
(default 3) makes a die whose averaged best face won fewer of the four votes ``unreadable``.

On the shared photos, with the shipped classifier, the two dice among 1901
that fail the test were both wrong reads (a pink 2 with a glare streak read 3 at 0.51, a dark
marbled 4 read 6 at 0.54), and no right read fails it. With the classifier's twin on the photos
it never saw (every 5th), the two dice that fail it were right reads (at 0.51 and 0.56), and on
the rendered stress sets of ``bench dice`` one right read of 160 glare dice fails it. Five dice in
all, three right: such a die is close to a coin toss, and the issue's bar (precision 0.995 against
accuracy 0.985: a wrong read costs several re-rolls) says to refuse what is right only 60 % of the time.

Why the threshold (``DiceConfig.second_look``) is 0.85 and not 0.75: on the 1901 dice the reader
keeps on the shared photos, the dice first read between 0.75 and 0.85 gave one wrong read (a motion-blurred smoky 6 read 4 at 0.82, whose turned readings average 4 at 0.47, so
it is refused) and no right read that the second look loses; 4.7 % of the dice take it instead of
2.7 %. From 0.88 on it starts to refuse right reads (one at 0.88), and reading the crop mirrored
too (eight readings) refused 3-4 right reads at 0.85-0.9. On ``bench dice``'s rendered stress sets
(20 and 60 frames each) 0.75 and 0.85 read the same."""

from __future__ import annotations

import numpy as np

from . import nets

TURNS = (1, 2, 3)
"""Quarter turns of the extra readings (with the crop as it is: four readings)."""


def second_look(threshold: float, crops: np.ndarray,
                probs: list[np.ndarray]) -> tuple[list[np.ndarray], dict[int, tuple[int, ...]]]:
    """Average the turned readings of the unsure dice.

    Args:
        threshold: best-face probability below which a die is read again (``0``: never).
        crops: N x ``nets.CROP`` x ``nets.CROP`` x 3 uint8 crops, one per die.
        probs: the N dice's :func:`nets.classify` rows.

    Returns:
        ``(probs, votes)``: the rows with each unsure die's replaced by the mean of its four
        readings, and for each unsure die (by index) the best face of each of its four readings,
        the crop as it is first.
    """
    unsure = [i for i, p in enumerate(probs) if nets.face_probs(p)[1] < threshold]
    if not unsure:
        return probs, {}
    turned = np.concatenate([np.ascontiguousarray(np.rot90(crops[unsure], k, axes=(1, 2))) for k in TURNS])
    more = nets.classify(turned).reshape(len(TURNS), len(unsure), -1)
    out = list(probs)
    votes = {}
    for j, i in enumerate(unsure):
        out[i] = (probs[i] + more[:, j].sum(0)) / (1.0 + len(TURNS))
        votes[i] = tuple(nets.face_probs(p)[0] for p in (probs[i], *more[:, j]))
    return out, votes


def unstable(votes: dict[int, tuple[int, ...]], probs: list[np.ndarray], min_votes: int) -> dict[int, tuple[int, ...]]:
    """The dice whose averaged best face won fewer than ``min_votes`` of their readings.

    Args:
        votes: from :func:`second_look`.
        probs: the averaged rows, from :func:`second_look`.
        min_votes: least number of readings that must give the averaged best face.

    Returns:
        index -> the readings' best faces, for each die that fails.

    >>> p = np.array([0, .1, .5, .4, 0, 0, 0, 0])
    >>> unstable({0: (2, 3, 2, 3), 1: (2, 2, 3, 2)}, [p, p], 3)
    {0: (2, 3, 2, 3)}
    """
    return {i: v for i, v in votes.items() if v.count(nets.face_probs(probs[i])[0]) < min_votes}

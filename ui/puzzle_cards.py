"""The puzzle box's cards as pictures for the puzzle check screen: each card drawn as printed,
without its pieces, by the same drawing the puzzle scenes use (a card's regions are defined
once, :mod:`vision.enigma.puzzles.cards`)."""

from __future__ import annotations

import random
from typing import Any

from ui.puzzle_checking import KINDS, enigma_pack, puzzle_box

#: a card picture's pixels per millimetre (a 60 mm card: 240 px, a button's picture)
CARD_PICTURE_PX_PER_MM = 4.0


def card_ids(kind: str) -> list[str]:
    return sorted(getattr(puzzle_box(), kind).cards)


def card_picture(kind: str, card_id: str, pack: Any) -> Any:
    """The card as printed, without its pieces (BGR): what the player finds in the box."""
    import cv2

    from vision.enigma.synth import puzzles as draw

    box = puzzle_box()
    card = getattr(box, kind).cards[card_id]
    s, pad, rng = CARD_PICTURE_PX_PER_MM, 1.0, random.Random(0)
    if kind == "weight":
        layer = draw.draw_weight(card, None, pack, s, pad_mm=pad, rng=rng)
    elif kind == "fragment":
        layer = draw.draw_fragment(card, box.fragment.pieces, [], pack, s, pad_mm=pad, rng=rng)
    elif kind == "angular":
        layer = draw.draw_angular_card(card, pack, s, pad_mm=pad)
    else:
        layer = draw.draw_conduit(card, box.conduit.pieces, {}, pack, s, pad_mm=pad, rng=rng)
    bgr = layer[:, :, :3].astype("float32")
    alpha = layer[:, :, 3:4].astype("float32") / 255.0
    dark = 40.0  # the app's background behind the card's rounded corners
    out = bgr * alpha + dark * (1 - alpha)
    return cv2.convertScaleAbs(out)


def card_pictures(cfg: Any) -> dict[tuple[str, str], Any]:
    """Every card of the box as a picture (on a worker: drawing takes a moment)."""
    pack = enigma_pack(cfg)
    return {(kind, cid): card_picture(kind, cid, pack) for kind in KINDS
            for cid in card_ids(kind)}


__all__ = ["CARD_PICTURE_PX_PER_MM", "card_ids", "card_picture", "card_pictures"]

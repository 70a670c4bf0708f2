"""The Indigo vision settings, read once from the typed configuration.

:class:`IndigoSettings` holds the reader's thresholds (``[vision]`` and ``[vision.indigo]``),
where the board lies (:class:`~vision.indigo.board.BoardGeometry`), the homography checks and
the table layouts of the other games. The caller builds it once from the loaded
:class:`config.Config` (``IndigoSettings.from_config(cfg)``) and hands it to the reader, the
renderer, calibration and teach. The defaults live in ``config/schema.py`` only;
:data:`DEFAULT_SETTINGS` is what they give.
"""

from __future__ import annotations

from dataclasses import dataclass

from config.schema import Config, PictureConfig
from vision.indigo.board import BoardGeometry
from vision.markers import MarkerChecks, MarkerLayout, table_layout

#: the table markers are large: a frame is searched at up to this many pixels (corners are
#: then refined at full resolution), retrying at half that when blurred markers are missed
MAX_DETECT_SIDE = 1280


@dataclass(frozen=True)
class IndigoSettings:
    """What the Indigo reader is tuned by and where it looks; see :meth:`from_config`."""

    #: canonical resolution of the rectified board: pixels per cell radius
    cell_px: int
    #: a cell, gem or chip read below this is a question, never applied
    min_confidence: float
    #: Laplacian variance of the rectified board; below: refused as blurred
    blur_min_variance: float
    #: mean likeness of the treasure tiles to the pack's; below: not an Indigo board
    board_min_score: float
    #: share of a gem spot in one gem colour that makes it a gem
    gem_min_fraction: float
    #: relative distance margin between the best and second tile class that gives confidence 1
    margin_full_confidence: float
    #: without markers, a frame whose edges are weaker than this is called blurred
    blur_min_edge: float
    #: the calibrated board: marker layout and the board's pose in the marker frame
    geometry: BoardGeometry
    #: homography thresholds of the marker stage
    checks: MarkerChecks
    #: (game, layout) of the other games that lay table markers 0-3 around their table, so a
    #: refused frame laid out for one of them is named "wrong game"
    other_tables: tuple[tuple[str, MarkerLayout], ...]
    #: what the picture of the board must carry before any piece is read (``[vision.picture]``)
    picture: PictureConfig

    @classmethod
    def from_config(cls, config: Config) -> IndigoSettings:
        """The settings of a loaded configuration (``Config()``: the built-in defaults)."""
        vision = config.vision
        indigo = vision.indigo
        return cls(
            cell_px=int(indigo.read_cell_px),
            min_confidence=float(vision.min_confidence),
            blur_min_variance=float(vision.blur_min_variance),
            board_min_score=float(indigo.board_min_score),
            gem_min_fraction=float(indigo.gem_min_fraction),
            margin_full_confidence=float(indigo.margin_full_confidence),
            blur_min_edge=float(indigo.blur_min_edge),
            geometry=board_geometry(config),
            checks=marker_checks(config),
            other_tables=(("Enigma", enigma_table_layout(config)),),
            picture=vision.picture,
        )


def board_geometry(config: Config) -> BoardGeometry:
    """The Indigo table markers and the board's calibrated pose (``[vision.indigo]``)."""
    indigo = config.vision.indigo
    frame = indigo.marker_frame_mm
    centre = indigo.board_center_mm
    return BoardGeometry(
        layout=table_layout(
            frame_mm=(float(frame[0]), float(frame[1])),
            marker_size_mm=float(indigo.marker_size_mm),
            dictionary_name=str(config.vision.marker_dictionary),
        ),
        centre_mm=(float(centre[0]), float(centre[1])),
        radius_mm=float(indigo.board_radius_mm),
        rotation_deg=float(indigo.rotation_deg),
    )


def marker_checks(config: Config) -> MarkerChecks:
    """Homography thresholds for the Indigo table markers (``[vision]``)."""
    return MarkerChecks(
        max_reprojection=float(config.vision.max_reprojection),
        min_area_fraction=float(config.vision.min_board_area),
        max_detect_side=MAX_DETECT_SIDE,
    )


def enigma_table_layout(config: Config) -> MarkerLayout:
    """Enigma's table markers as ``[vision.enigma]`` lays them (the keys its reader uses).

    Enigma also lays ids 0-3 around its table: when the Indigo layout does not fit a frame's
    markers but this one does, the reader says the table is laid out for Enigma.
    """
    enigma = config.vision.enigma
    frame = enigma.marker_frame_mm
    return table_layout(
        frame_mm=(float(frame[0]), float(frame[1])),
        marker_size_mm=float(enigma.marker_size_mm),
        dictionary_name=str(config.vision.marker_dictionary),
    )


DEFAULT_SETTINGS = IndigoSettings.from_config(Config())

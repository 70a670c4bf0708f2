"""How the Enigma reader and the puzzle checks are tuned: typed settings built once from the
loaded configuration (``[vision]`` and ``[vision.enigma]``, whose defaults live in
:mod:`config.schema`).

- :class:`TableSettings`: where the table markers lie and the tile size
  (:func:`vision.enigma.geometry.table_geometry` turns them into a ``TableGeometry``);
- :class:`ReaderSettings`: the table reader's thresholds (:func:`vision.enigma.reader.read_enigma`);
- :class:`MatSettings`: where the puzzle mat's markers lie (:func:`vision.enigma.mat.mat_layout`);
- :class:`PuzzleSettings`: the puzzle checks' doubt margins and the mat
  (:func:`vision.enigma.puzzles.check.check_puzzle_frame`).

>>> DEFAULT_SETTINGS.px_per_tile
64
"""

from __future__ import annotations

from dataclasses import dataclass

from config.schema import Config
from vision.markers import MarkerChecks
from vision.picture import PictureSettings


@dataclass(frozen=True)
class TableSettings:
    """The four table markers (ids 0..3) and the tile size."""

    #: width and height (mm) of the rectangle the markers' centres form, centred on 0
    marker_frame_mm: tuple[float, float]
    #: printed side of each marker (mm)
    marker_size_mm: float
    #: the ArUco dictionary the markers are printed from
    marker_dictionary: str
    #: side of a tile (mm); 0 or less means the art pack's (taught) size
    tile_mm: float

    @classmethod
    def from_config(cls, config: Config) -> TableSettings:
        """``[vision.enigma]`` marker frame, marker size and tile size, ``[vision]`` dictionary."""
        enigma = config.vision.enigma
        frame = enigma.marker_frame_mm
        return cls(
            marker_frame_mm=(float(frame[0]), float(frame[1])),
            marker_size_mm=float(enigma.marker_size_mm),
            marker_dictionary=str(config.vision.marker_dictionary),
            tile_mm=float(enigma.tile_mm),
        )


@dataclass(frozen=True)
class ReaderSettings:
    """Thresholds of the table reader and where the table lies."""

    #: resolution of the straightened table: pixels per tile side
    px_per_tile: int
    #: a tile or networker read with lower confidence is asked, not applied
    min_confidence: float
    #: smallest likeness of the start tile to the pack's start face; below it the frame is
    #: refused ("no start tile")
    start_min_score: float
    #: share of a grid square that must show tile, not table, to hold a tile
    occupied_min: float
    #: share of an opening's window that must be channel to read an opening there
    port_min_fraction: float
    #: a start tile whose Laplacian variance (at ``px_per_tile``) is below this is too
    #: blurred to read
    blur_min_variance: float
    #: smallest share of the frame the marker quadrilateral may cover
    min_board_area: float
    #: the table markers and the tile size
    table: TableSettings
    #: what the picture of the table must carry before any tile is read (``[vision.picture]``)
    picture: PictureSettings
    #: the game's ``require_edge_match``: an opening meets the neighbour's mirrored one, so
    #: a neighbour's read of it settles or contradicts a tile's (:mod:`vision.enigma.mirror`)
    require_edge_match: bool = True

    @classmethod
    def from_config(cls, config: Config) -> ReaderSettings:
        """``[vision]`` confidence, blur and board area, ``[vision.picture]`` the picture's
        limits, ``[vision.enigma]`` for the rest."""
        enigma = config.vision.enigma
        return cls(
            px_per_tile=int(enigma.read_px_per_tile),
            min_confidence=float(config.vision.min_confidence),
            start_min_score=float(enigma.start_min_score),
            occupied_min=float(enigma.occupied_min),
            port_min_fraction=float(enigma.port_min_fraction),
            blur_min_variance=float(config.vision.blur_min_variance),
            min_board_area=float(config.vision.min_board_area),
            table=TableSettings.from_config(config),
            picture=config.vision.picture,
        )

    @property
    def checks(self) -> MarkerChecks:
        """The marker checks the table markers must pass."""
        return MarkerChecks(min_area_fraction=self.min_board_area)


@dataclass(frozen=True)
class MatSettings:
    """The puzzle mat's four markers (ids 16..19)."""

    #: width and height (mm) of the rectangle the markers' centres form, centred on 0
    frame_mm: tuple[float, float]
    #: printed side of each marker (mm)
    marker_mm: float
    #: the ArUco dictionary the markers are printed from
    marker_dictionary: str

    @classmethod
    def from_config(cls, config: Config) -> MatSettings:
        """``[vision.enigma]`` mat frame and marker size, ``[vision]`` dictionary."""
        enigma = config.vision.enigma
        frame = enigma.mat_frame_mm
        return cls(
            frame_mm=(float(frame[0]), float(frame[1])),
            marker_mm=float(enigma.mat_marker_mm),
            marker_dictionary=str(config.vision.marker_dictionary),
        )


#: above this share of the silhouette a fragment's gap or overhang is certain, not doubtful
FRAGMENT_CLEAR_GAP = 0.03


@dataclass(frozen=True)
class PuzzleSettings:
    """Doubt margins of the puzzle checks and where the mat lies."""

    #: smallest coverage (IoU) of the silhouette to call a fragment puzzle solved
    fragment_min_iou: float
    #: largest gap or overhang, as a share of the silhouette after thin outline slivers
    fragment_max_gap: float
    #: above this share a gap or overhang is certain (between the two: cannot tell)
    fragment_clear_gap: float
    #: the mat's markers
    mat: MatSettings
    #: what the picture of the card must carry before a verdict (``[vision.picture]``)
    picture: PictureSettings | None = None

    @classmethod
    def from_config(cls, config: Config) -> PuzzleSettings:
        """``[vision.enigma]`` fragment margins and mat."""
        enigma = config.vision.enigma
        return cls(
            fragment_min_iou=float(enigma.fragment_min_iou),
            fragment_max_gap=float(enigma.fragment_max_gap),
            fragment_clear_gap=FRAGMENT_CLEAR_GAP,
            mat=MatSettings.from_config(config),
            picture=config.vision.picture,
        )


DEFAULT_TABLE = TableSettings.from_config(Config())
DEFAULT_SETTINGS = ReaderSettings.from_config(Config())
DEFAULT_MAT = MatSettings.from_config(Config())
DEFAULT_PUZZLE_SETTINGS = PuzzleSettings.from_config(Config())

__all__ = [
    "DEFAULT_MAT",
    "DEFAULT_PUZZLE_SETTINGS",
    "DEFAULT_SETTINGS",
    "DEFAULT_TABLE",
    "FRAGMENT_CLEAR_GAP",
    "MatSettings",
    "PuzzleSettings",
    "ReaderSettings",
    "TableSettings",
]

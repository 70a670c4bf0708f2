"""Markers: detection, checked homography, refusals, printable sheet at true scale."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import FrameRefusedError
from vision.markers import (
    MarkerChecks,
    MarkerLayout,
    locate,
    marker_plane_image,
    marker_sheet,
    write_image,
)
from vision.synth.effects import apply_effects

LAYOUT = MarkerLayout(
    ids=(0, 1, 2, 3),
    size_mm=30.0,
    centres_mm=((25.0, 25.0), (275.0, 25.0), (275.0, 225.0), (25.0, 225.0)),
)


def _plane(px_per_mm: float = 2.0) -> np.ndarray:
    img = marker_plane_image(LAYOUT, px_per_mm=px_per_mm, background=200)
    cv2.putText(img, "PLANE", (150, 250), cv2.FONT_HERSHEY_SIMPLEX, 3, (40, 40, 160), 6)
    return img


@pytest.mark.parametrize("seed", range(6))
def test_locate_recovers_the_plane_under_camera_effects(seed: int) -> None:
    scene = _plane()
    out = apply_effects(
        scene,
        np.random.default_rng(seed),
        ["whitebalance", "light", "perspective", "lens", "noise", "jpeg"],
        frame_size=(800, 600),
    )
    fit = locate(out.image, LAYOUT)
    # a plane point seen in the frame maps back to within 2 mm
    plane_pts = np.array([[150.0, 125.0], [60.0, 200.0], [250.0, 60.0]])
    frame_pts = out.truth.map_points(plane_pts * 2.0)
    back = cv2.perspectiveTransform(frame_pts.reshape(-1, 1, 2), fit.image_to_plane).reshape(-1, 2)
    # lens distortion is not a homography: a few mm of 300 remain
    assert np.abs(back - plane_pts).max() < 4.0


def test_blank_frame_is_refused_with_a_reason() -> None:
    with pytest.raises(FrameRefusedError) as info:
        locate(np.full((300, 400, 3), 128, np.uint8), LAYOUT)
    assert info.value.reason == "no-markers" and info.value.exit_code == 4


def test_markers_of_another_layout_are_named() -> None:
    other = MarkerLayout(ids=(8, 9, 10, 11), size_mm=30.0, centres_mm=LAYOUT.centres_mm)
    with pytest.raises(FrameRefusedError) as info:
        locate(marker_plane_image(other, px_per_mm=2.0), LAYOUT)
    assert info.value.reason == "wrong-layout"


def test_a_tiny_plane_is_refused() -> None:
    small = marker_plane_image(LAYOUT, px_per_mm=1.2)
    frame = np.full((1400, 1800, 3), 200, np.uint8)
    frame[: small.shape[0], : small.shape[1]] = small
    with pytest.raises(FrameRefusedError) as info:
        locate(frame, LAYOUT, checks=MarkerChecks(min_area_fraction=0.1))
    assert info.value.reason == "too-small"


def test_swapped_markers_give_a_bad_homography() -> None:
    swapped = MarkerLayout(ids=(0, 2, 1, 3), size_mm=30.0, centres_mm=LAYOUT.centres_mm)
    with pytest.raises(FrameRefusedError) as info:
        locate(_plane(), swapped)
    assert info.value.reason == "bad-homography"


def test_wrong_marker_size_fails_the_reprojection_check() -> None:
    bigger = MarkerLayout(ids=LAYOUT.ids, size_mm=45.0, centres_mm=LAYOUT.centres_mm)
    with pytest.raises(FrameRefusedError, match="marker outlines"):
        locate(_plane(), bigger)


def test_blurred_markers_are_found_by_the_half_scale_retry() -> None:
    scene = _plane(4.0)
    blurred = cv2.GaussianBlur(scene, (0, 0), 5)
    full_only = MarkerChecks(retry_scales=(1.0,))
    with_retry = MarkerChecks(retry_scales=(1.0, 0.5, 0.25))
    try:
        locate(blurred, LAYOUT, checks=full_only)
        full_found = True
    except FrameRefusedError:
        full_found = False
    fit = locate(blurred, LAYOUT, checks=with_retry)
    assert fit.scale_used < 1.0 or full_found


@pytest.mark.parametrize("suffix", [".png", ".pdf"])
def test_marker_sheet_prints_at_true_scale(tmp_path: Path, suffix: str) -> None:
    page = marker_sheet([0, 1, 2, 3], size_mm=40.0, dpi=150)
    path = tmp_path / f"m{suffix}"
    write_image(path, page, dpi=150)
    assert path.stat().st_size > 1000
    from vision.markers import detect_markers

    found, _ = detect_markers(page)
    assert sorted(found) == [0, 1, 2, 3]
    side_px = np.linalg.norm(found[0].corners[1] - found[0].corners[0])
    assert side_px == pytest.approx(40.0 * 150 / 25.4, rel=0.03)
    if suffix == ".pdf":
        assert path.read_bytes().startswith(b"%PDF")


def test_config_max_reprojection_sets_the_homography_check() -> None:
    from config import config_from_dict, load_config
    from vision.indigo.settings import marker_checks

    def checks_from_config(overrides: dict[str, dict[str, float]]) -> MarkerChecks:
        return marker_checks(config_from_dict(overrides))

    assert marker_checks(load_config()).max_reprojection == 0.15
    assert checks_from_config({"vision": {"max_reprojection": 0.02}}).max_reprojection == 0.02
    layout = MarkerLayout(
        ids=(0, 1, 2, 3), size_mm=40.0, centres_mm=((30, 30), (270, 30), (270, 270), (30, 270))
    )
    # markers printed 20 % larger than the layout says: off by about 6 mm at the corners
    page = marker_plane_image(
        MarkerLayout(ids=layout.ids, size_mm=48.0, centres_mm=layout.centres_mm), px_per_mm=2.0
    )
    locate(page, layout, checks=checks_from_config({"vision": {"max_reprojection": 0.3}}))
    with pytest.raises(FrameRefusedError, match="marker outlines") as info:
        locate(page, layout, checks=checks_from_config({"vision": {"max_reprojection": 0.1}}))
    assert info.value.reason == "bad-homography"


def _whole_level_search(image: np.ndarray, shrink: float) -> dict[int, np.ndarray]:
    """The reference: OpenCV's detector on the whole frame shrunk ``shrink`` times, with the
    parameters of vision.markers (sub-pixel corners, merge distance 0.05)."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.minMarkerDistanceRate = 0.05
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if shrink != 1.0:
        gray = cv2.resize(gray, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    corners, ids, _ = detector.detectMarkers(gray)
    found = {} if ids is None else {
        int(i): quad.reshape(4, 2) / shrink for quad, i in zip(corners, ids.ravel(), strict=True)}
    return found


def _camera_frame(seed: int, px_per_mm: float) -> np.ndarray:
    out = apply_effects(_plane(px_per_mm), np.random.default_rng(seed),
                        ["whitebalance", "light", "perspective", "noise", "jpeg"],
                        frame_size=(2304, 1296), max_tilt_deg=20.0)
    return out.image


@pytest.mark.parametrize("seed", range(3))
def test_a_full_resolution_search_finds_the_corners_of_a_whole_frame_search(seed: int) -> None:
    from vision.markers import detect_markers

    frame = _camera_frame(seed, px_per_mm=4.0)
    found, scale = detect_markers(frame, wanted=LAYOUT.ids)
    reference = _whole_level_search(frame, 1.0)
    assert scale == 1.0 and set(found) == set(LAYOUT.ids) <= set(reference)
    for marker_id, detection in found.items():
        assert np.abs(detection.corners - reference[marker_id]).max() < 0.01


@pytest.mark.parametrize("max_side", [1280, 1000])
def test_a_shrunk_search_refines_the_corners_of_the_whole_shrunk_frame(max_side: int) -> None:
    """1280 of 2304 pixels shrinks every 9 pixels to 5 (searched in windows), 1000 has no short
    period (the whole shrunk frame is searched): both refine the whole shrunk frame's corners."""
    from vision.markers import detect_markers

    frame = _camera_frame(7, px_per_mm=4.0)
    found, scale = detect_markers(frame, wanted=LAYOUT.ids, max_side=max_side)
    shrink = max_side / 2304
    whole = _whole_level_search(frame, shrink)
    assert scale == 1.0 and set(found) == set(LAYOUT.ids) <= set(whole)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    win = int(round(1.0 / shrink)) + 1
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    for marker_id, detection in found.items():
        start = whole[marker_id].astype(np.float32).reshape(-1, 1, 2)
        refined = cv2.cornerSubPix(gray, start, (win, win), (-1, -1), criteria).reshape(4, 2)
        assert np.abs(detection.corners - refined).max() < 0.01


def test_markers_too_small_for_a_coarse_copy_are_found_as_by_a_whole_frame_search() -> None:
    from vision.markers import detect_markers

    frame = np.full((1296, 2304, 3), 90, np.uint8)
    plane = _plane(px_per_mm=0.7)  # markers of 21 pixels
    frame[500 : 500 + plane.shape[0], 900 : 900 + plane.shape[1]] = plane
    found, scale = detect_markers(frame, wanted=LAYOUT.ids)
    reference = _whole_level_search(frame, 1.0)
    assert scale == 1.0 and set(found) == set(LAYOUT.ids) <= set(reference)
    for marker_id, detection in found.items():
        assert np.abs(detection.corners - reference[marker_id]).max() < 0.01


def _shifted(frame: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """The frame with its picture moved ``dx`` pixels right and ``dy`` down (the camera shook)."""
    moved = np.full_like(frame, 128)
    h, w = frame.shape[:2]
    moved[dy:, dx:] = frame[: h - dy, : w - dx]
    return moved


def _calls_of(monkeypatch: pytest.MonkeyPatch, name: str) -> list[dict[str, object]]:
    """The keyword arguments of every call of ``vision.markers.<name>`` from now on."""
    import vision.markers as markers

    calls: list[dict[str, object]] = []
    function = getattr(markers, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(kwargs)
        return function(*args, **kwargs)

    monkeypatch.setattr(markers, name, counted)
    return calls


@pytest.mark.parametrize("dx, dy", [(0, 0), (3, 2)])
def test_a_search_again_looks_where_the_markers_were_and_finds_the_whole_frame_corners(
        monkeypatch: pytest.MonkeyPatch, dx: int, dy: int) -> None:
    """The camera still (or shaken by a few pixels): the second search finds the markers in
    windows round where the first found them, with the corners of a whole-frame search."""
    from vision.marker_places import forget_marker_places
    from vision.markers import detect_markers

    forget_marker_places()
    frame = _camera_frame(4, px_per_mm=4.0)
    detect_markers(frame, wanted=LAYOUT.ids)
    coarse_searches = _calls_of(monkeypatch, "_coarse_finds")
    again = _shifted(frame, dx, dy)
    found, scale = detect_markers(again, wanted=LAYOUT.ids)
    reference = _whole_level_search(again, 1.0)
    assert coarse_searches == []
    assert scale == 1.0 and set(found) == set(LAYOUT.ids) <= set(reference)
    for marker_id, detection in found.items():
        assert np.abs(detection.corners - reference[marker_id]).max() < 0.01


def test_a_search_of_a_shrunk_level_again_refines_the_whole_shrunk_frames_corners(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet's search (half a frame first, no coarse copy): searched again where the
    markers were, the corners are those of the whole half-size frame, refined."""
    from vision.marker_places import forget_marker_places, remembered_places
    from vision.markers import detect_markers

    forget_marker_places()
    frame = cv2.resize(_camera_frame(5, px_per_mm=4.0), (1280, 720),
                       interpolation=cv2.INTER_AREA)
    first, _ = detect_markers(frame, wanted=LAYOUT.ids, scales=(0.5, 1.0))
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert remembered_places(("DICT_4X4_50", LAYOUT.ids, gray.shape, 0.5), gray) is not None
    whole = _whole_level_search(frame, 0.5)
    whole_levels = _calls_of(monkeypatch, "_shrunk")
    found, scale = detect_markers(frame, wanted=LAYOUT.ids, scales=(0.5, 1.0))
    assert whole_levels == []  # only the windows round the remembered places were searched
    assert scale == 0.5 and set(found) == set(LAYOUT.ids) <= set(whole)
    win = int(round(1.0 / 0.5)) + 1
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    for marker_id, detection in found.items():
        start = whole[marker_id].astype(np.float32).reshape(-1, 1, 2)
        refined = cv2.cornerSubPix(gray, start, (win, win), (-1, -1), criteria).reshape(4, 2)
        assert np.abs(detection.corners - refined).max() < 0.01
        assert np.abs(detection.corners - first[marker_id].corners).max() < 0.01


def test_another_scene_is_searched_afresh_not_where_the_last_markers_were(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Markers elsewhere in the next frame: their old places look different, so the search
    goes through the coarse copy at once, and finds the new frame's corners."""
    from vision.marker_places import forget_marker_places
    from vision.markers import detect_markers

    forget_marker_places()
    detect_markers(_camera_frame(1, px_per_mm=4.0), wanted=LAYOUT.ids)
    frame = _camera_frame(2, px_per_mm=3.0)
    windows = _calls_of(monkeypatch, "_search_windows")
    found, _ = detect_markers(frame, wanted=LAYOUT.ids)
    reference = _whole_level_search(frame, 1.0)
    assert [call.get("moved", 0.0) for call in windows] == [0.0]  # round the coarse finds only
    assert set(found) == set(LAYOUT.ids)
    for marker_id, detection in found.items():
        assert np.abs(detection.corners - reference[marker_id]).max() < 0.01

"""Calibration: the camera view with the markers it finds, to aim the camera at the table."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line
from kivy.properties import StringProperty

from ui import theme
from ui.i18n import _
from ui.screens.base import BaseScreen


class CalibrationScreen(BaseScreen):
    status = StringProperty("")

    def title(self) -> str:
        return _("Calibration")

    def refresh(self) -> None:
        if self.app.camera is None or self.app.camera_failed:
            self.status = _("No camera: check the cable and the camera setting")
        else:
            self.status = _("Put the marker sheets on the table, then check")

    def check(self) -> None:
        frame = self.app.last_frame
        if frame is None:
            self.status = _("No camera frame yet")
            return
        name = self.app.cfg.vision.marker_dictionary

        def work() -> Any:
            from vision.markers import detect_markers

            return detect_markers(frame, dictionary_name=name)

        self.status = _("Looking for markers…")
        # the frame's size is kept now: last_frame is cleared when the camera rests (Home)
        height, width = frame.shape[:2]
        self.app.run_in_background(work, lambda found, error: self._done(
            found, error, width=width, height=height), name="markers")

    def _done(self, found: Any, error: BaseException | None, *, width: int,
              height: int) -> None:
        view = self.ids.view
        view.canvas.after.clear()
        if error is not None:
            self.status = _("Marker check failed: {error}").format(error=error)
            return
        detections, _scale = found
        if not detections:
            self.status = _("No markers found: more light, less blur, or move the camera")
            return
        self.status = _("Markers found: {ids}").format(ids=", ".join(map(str, sorted(detections))))
        nx, ny = view.norm_image_size
        ox, oy = view.center_x - nx / 2, view.center_y - ny / 2
        with view.canvas.after:
            Color(*theme.MARKER_FOUND)
            for detection in detections.values():
                pts = []
                for x, y in detection.corners:
                    pts += [ox + x / width * nx, oy + (1 - y / height) * ny]
                Line(points=pts + pts[:2], width=2)

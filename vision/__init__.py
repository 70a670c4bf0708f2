"""Camera sources and the readers that turn a frame into companion types (cv2 + numpy).

Shared foundation (see ``docs/vision.md``):

- :mod:`vision.camera`: ``open_camera(cfg, render=None)``, ``PiCamera``, ``UsbCamera``,
  ``ReplayCamera``, ``RenderedCamera``: context managers, ``read() -> BGR ndarray``;
- :mod:`vision.markers`: ``locate(image, layout, checks=...) -> PlaneFit`` (checked homography),
  ``marker_sheets``, ``RESERVED_IDS``;
- :mod:`vision.synth.effects`: ``apply_effects(scene, rng, names, ...)`` seeded camera effects with
  ground truth;
- :mod:`vision.errors`: ``VisionError``, ``FrameRefusedError`` (exit 4), ``UnreadableImageError``
  (exit 2), ``CameraError``, ``ArtPackError``;
- :mod:`vision.image_io`: ``read_image(path)`` refusing truncated files.

Indigo: ``vision.art_pack.load_indigo_pack``, ``vision.indigo.synth.render.render_frame`` /
``rendered_camera``, ``vision.indigo.reader.read_indigo(frame, pack, cfg) -> IndigoRead``,
``vision.indigo.after.check_after(previous_state, read)``, ``vision.indigo.teach``,
``vision.indigo.calibrate``.

Nothing is imported here, so ``import vision`` stays cheap.
"""

"""Camera sources and the readers that turn a frame into companion types (cv2 + numpy).

Where things live (see ``docs/vision.md``):

- the shared core, here: :mod:`vision.camera` (camera sources, context managers whose
  ``read()`` gives a BGR array), :mod:`vision.image_io` (image files as cameras and phones
  write them), :mod:`vision.markers` (ArUco markers and the checked homography,
  ``locate(image, layout, checks=...) -> PlaneFit``), :mod:`vision.warp` (warps that give the
  same pixels on every supported OpenCV), :mod:`vision.art_pack` (what every art pack's
  manifest shares), :mod:`vision.picture` (the check of the picture itself) and
  :mod:`vision.errors` (``FrameRefusedError`` exit 4, ``UnreadableImageError`` exit 2, ...);
- one package per game, named as in ``companion``: :mod:`vision.indigo`,
  :mod:`vision.enigma` (with ``puzzles``), :mod:`vision.second_chance` and
  :mod:`vision.break_the_code`. Each holds its reader's stages, its ``settings`` (a frozen
  object built once from the config with ``from_config``), its art pack and its teach flow;
- scene drawing for tests, benchmarks and the demo: each game's ``synth`` package (art,
  renderer, ground truth) and the shared camera effects in :mod:`vision.synth`. No reader,
  stage or checker imports ``synth`` (``tests/test_architecture.py`` keeps it so).

Nothing is imported here, so ``import vision`` stays cheap.
"""

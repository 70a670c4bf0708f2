"""Scene drawing shared by the games: camera effects (``effects``) and poor cameras and rooms
(``conditions``). Only tests, benchmarks, the demo camera and ``companion render`` use it."""

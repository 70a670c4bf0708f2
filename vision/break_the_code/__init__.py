"""Break the Code vision: the code mat, the tile reader and teaching (scene drawing in
``synth``, which no reader module imports)."""

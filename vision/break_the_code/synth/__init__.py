"""Break the Code scene drawing: tile styles (``art``), tiles laid on the code mat
(``render``) and the demo pack generator (``demo_pack``), for tests, the bench and the demo."""

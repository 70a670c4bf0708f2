"""Indigo scene drawing: pack art (``art``), the table renderer and demo camera (``render``)
and simulated teach-page photos (``teach_photo``), for tests, the bench and the demo."""

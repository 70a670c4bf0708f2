"""The Enigma screen hands what its last table read found to the next read, so that read
looks again only where the table changed (``read_enigma_frame(..., previous=)``)."""

from __future__ import annotations

from test_at_the_table import StillCamera, enigma_reach


def test_the_enigma_screen_hands_the_last_read_to_the_next(make_driver, monkeypatch):
    import ui.reading
    from ui.reading import EnigmaReading

    handed: list[object] = []
    memories = [object(), object()]

    def reader(*_args, previous=None, **_kwargs):
        handed.append(previous)
        return EnigmaReading(problem="no-new", message="no new tile seen",
                             memory=memories[len(handed) - 1])

    monkeypatch.setattr(ui.reading, "read_enigma_frame", reader)
    driver = make_driver(camera_source=StillCamera())
    enigma_reach(driver)
    screen = driver.screen("enigma")
    assert driver.wait_for(lambda: driver.app.last_frame is not None, frames=600)
    for reads in (1, 2):
        driver.tap(screen.read_button)
        assert driver.wait_for(lambda n=reads: len(handed) == n and not screen.read_running,
                               frames=600)
        driver.pump(2)
    assert handed == [None, memories[0]]
    assert screen.table_memory is memories[1]

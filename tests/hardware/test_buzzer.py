"""Melodies are data within the buzzer's range; the buzzer plays them on a given clock."""

from __future__ import annotations

import pytest
from gpiozero.exc import GPIOPinInUse
from gpiozero.tones import Tone

from hardware.buzzer import MELODIES, Buzzer, Melody, Note, check_melody, tone_range
from hardware.errors import MelodyRangeError

A3, A5 = Tone("A3").midi, Tone("A5").midi


def test_tonal_buzzer_range_is_a3_to_a5_with_one_octave() -> None:
    assert tone_range(1) == (A3, A5)
    assert tone_range(2) == (A3 - 12, A5 + 12)


@pytest.mark.parametrize("name", sorted(MELODIES))
def test_every_shipped_melody_stays_within_a3_a5(name: str) -> None:
    melody = MELODIES[name]
    notes = [Tone(note.tone).midi for note in melody.notes if note.tone is not None]
    assert notes, f"{name} has no notes"
    assert all(A3 <= midi <= A5 for midi in notes), (name, notes)
    check_melody(melody, octaves=1)  # plays on gpiozero's default one octave
    assert 0 < melody.seconds <= 2.0


def test_the_timer_needs_these_sounds() -> None:
    assert {"start", "tick", "warning", "alarm", "solved", "rejected"} <= set(MELODIES)
    assert MELODIES["tick"].seconds < 0.1  # a tick is a blip, not a tune
    assert MELODIES["alarm"].priority > max(m.priority for n, m in MELODIES.items() if n != "alarm")


def test_a_note_out_of_range_is_refused_with_the_range() -> None:
    high = Melody("shriek", (Note("A4", 0.1), Note("C6", 0.1)))
    with pytest.raises(MelodyRangeError, match=r"'shriek' note 2 C6 is outside .* A3\.\.A5"):
        check_melody(high, octaves=1)
    check_melody(high, octaves=2)  # raising the octaves makes room
    with pytest.raises(MelodyRangeError, match="not a note"):
        check_melody(Melody("typo", (Note("H9", 0.1),)))
    with pytest.raises(MelodyRangeError, match="lasts 0"):
        check_melody(Melody("zero", (Note("A4", 0),)))


def test_the_buzzer_refuses_a_bad_melody_before_taking_the_pin(factory: object) -> None:
    with pytest.raises(MelodyRangeError):
        Buzzer(18, octaves=1, melodies={"x": Melody("x", (Note("A6", 0.1),))}, pin_factory=factory)
    with Buzzer(18, pin_factory=factory):  # the pin was never taken
        pass


def test_play_walks_through_the_notes_on_the_clock(factory: object) -> None:
    melodies = {"two": Melody("two", (Note("A4", 0.1), Note(None, 0.05), Note("E5", 0.1)))}
    with Buzzer(18, melodies=melodies, pin_factory=factory) as buzzer:
        pin = buzzer.device.pwm_device.pin
        timeline = []
        assert buzzer.play("two", 0.0)
        for step in range(1, 40):
            buzzer.update(step * 0.01)
            timeline.append(buzzer.note)
        assert timeline[:9] == ["A4"] * 9
        assert timeline[10:14] == [None] * 4
        assert timeline[15:23] == ["E5"] * 8
        assert timeline[-1] is None and buzzer.melody is None
        assert pin.frequency is None and pin.state == 0.0  # silent at the end


def test_a_higher_priority_melody_is_not_interrupted(factory: object) -> None:
    with Buzzer(18, pin_factory=factory) as buzzer:
        assert buzzer.play("alarm", 0.0)
        assert not buzzer.play("tick", 0.5)
        assert buzzer.melody == "alarm"
        assert buzzer.play("tick", MELODIES["alarm"].seconds + 0.01)
        assert buzzer.play("alarm", 5.0)  # equal or higher priority interrupts
        buzzer.stop()
        assert buzzer.note is None and buzzer.device.value is None
        with pytest.raises(MelodyRangeError, match="no melody 'fanfare'"):
            buzzer.play("fanfare", 6.0)


def test_close_frees_the_pin(factory: object) -> None:
    buzzer = Buzzer(18, pin_factory=factory)
    with pytest.raises(GPIOPinInUse):
        Buzzer(18, pin_factory=factory)
    buzzer.close()
    buzzer.close()
    assert buzzer.closed
    Buzzer(18, pin_factory=factory).close()


def test_a_pin_without_pwm_gets_a_hint() -> None:
    from gpiozero.pins.mock import MockFactory, MockPin

    from hardware.errors import HardwareUnavailableError

    with pytest.raises(HardwareUnavailableError, match="buzzer on GPIO 18: .*no PWM"):
        Buzzer(18, pin_factory=MockFactory(pin_class=MockPin))

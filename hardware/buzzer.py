"""The piezo buzzer: melodies as data, played by a gpiozero ``TonalBuzzer`` without threads.

A :class:`Melody` is a tuple of :class:`Note` (a note name such as ``"C#5"``, or ``None`` for a
rest, and a length in seconds). :class:`Buzzer` starts a melody with ``play(name, now)`` and
moves through it on each ``update(now)``, which the table's render loop calls; so the sound is
driven by the same clock as the light bar and is exact on a manual clock in tests.

``TonalBuzzer`` only spans ``octaves`` around A4: A3..A5 with gpiozero's default of one octave.
Every shipped melody stays within A3..A5 so it plays at any ``octaves``; a melody outside the
buzzer's range is refused when the buzzer is built (:class:`~hardware.errors.MelodyRangeError`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpiozero import TonalBuzzer
from gpiozero.exc import PinPWMUnsupported
from gpiozero.tones import Tone

from companion.closing import Closing
from hardware.errors import HardwareUnavailableError, MelodyRangeError
from hardware.pins import NO_PWM_HINT

MID_TONE = "A4"


@dataclass(frozen=True)
class Note:
    tone: str | None  # a note name ("A4", "C#5") or None for a rest
    seconds: float


@dataclass(frozen=True)
class Melody:
    name: str
    notes: tuple[Note, ...]
    #: a melody does not interrupt one of higher priority that is still playing
    priority: int = 0

    @property
    def seconds(self) -> float:
        return sum(note.seconds for note in self.notes)

    def note_at(self, elapsed: float) -> str | None:
        """The note sounding ``elapsed`` seconds in (None in a rest or after the end)."""
        if elapsed < 0:
            return None
        end = 0.0
        for note in self.notes:
            end += note.seconds
            if elapsed < end:
                return note.tone
        return None


def _melody(name: str, priority: int, *notes: tuple[str | None, float]) -> Melody:
    return Melody(name, tuple(Note(tone, seconds) for tone, seconds in notes), priority)


#: The sounds of the sand timer. Data, not code: all within A3..A5.
MELODIES: dict[str, Melody] = {
    melody.name: melody
    for melody in (
        # the glass turns: a quick rising chirp
        _melody("start", 2, ("E5", 0.06), ("A5", 0.10)),
        # one tick per second in the last seconds: a short click-like blip
        _melody("tick", 0, ("E5", 0.035)),
        # a warning threshold: two short beeps
        _melody("warning", 1, ("C5", 0.08), (None, 0.06), ("C5", 0.08)),
        # time is up: a falling two-tone alarm, three times
        _melody(
            "alarm",
            3,
            ("A5", 0.22),
            ("E5", 0.22),
            ("A5", 0.22),
            ("E5", 0.22),
            ("A5", 0.22),
            ("E5", 0.40),
        ),
        # a player solved it: a rising major arpeggio
        _melody("solved", 2, ("A4", 0.07), ("C#5", 0.07), ("E5", 0.07), ("A5", 0.16)),
        # a press that does not count (after the sand ran out): a low buzz
        _melody("rejected", 2, ("A3", 0.12), (None, 0.05), ("A3", 0.25)),
    )
}


def tone_range(octaves: int, mid_tone: str = MID_TONE) -> tuple[int, int]:
    """The lowest and highest MIDI note a ``TonalBuzzer`` with these settings plays."""
    mid = Tone(mid_tone).midi
    return mid - 12 * octaves, mid + 12 * octaves


def check_melody(melody: Melody, *, octaves: int = 1, mid_tone: str = MID_TONE) -> None:
    """Raise :class:`MelodyRangeError` for a note the buzzer cannot play."""
    low, high = tone_range(octaves, mid_tone)
    for index, note in enumerate(melody.notes):
        if note.seconds <= 0:
            raise MelodyRangeError(
                f"melody {melody.name!r} note {index + 1} lasts {note.seconds} s (must be > 0)"
            )
        if note.tone is None:
            continue
        try:
            midi = Tone(note.tone).midi
        except ValueError as exc:
            raise MelodyRangeError(
                f"melody {melody.name!r} note {index + 1} {note.tone!r} is not a note: {exc}"
            ) from exc
        if not low <= midi <= high:
            raise MelodyRangeError(
                f"melody {melody.name!r} note {index + 1} {note.tone} is outside the buzzer's "
                f"range {Tone.from_midi(low).note}..{Tone.from_midi(high).note} "
                f"(octaves={octaves}); raise [gpio] buzzer_octaves or change the melody"
            )


class Buzzer(Closing):
    """A ``TonalBuzzer`` that plays named melodies, advanced by :meth:`update`."""

    def __init__(
        self,
        pin: int | str,
        *,
        octaves: int = 1,
        melodies: Mapping[str, Melody] | None = None,
        pin_factory: Any = None,
    ) -> None:
        self.melodies = dict(MELODIES if melodies is None else melodies)
        for melody in self.melodies.values():
            check_melody(melody, octaves=octaves)
        self.pin = pin
        self.octaves = octaves
        try:
            self.device = TonalBuzzer(pin, octaves=octaves, pin_factory=pin_factory)
        except PinPWMUnsupported as exc:
            raise HardwareUnavailableError(f"buzzer on GPIO {pin}: {NO_PWM_HINT}") from exc
        self._melody: Melody | None = None
        self._started = 0.0
        self._note: str | None = None

    @property
    def note(self) -> str | None:
        """The note sounding now, or None when silent."""
        return self._note

    @property
    def melody(self) -> str | None:
        """The name of the melody still playing, or None."""
        return None if self._melody is None else self._melody.name

    def play(self, name: str, now: float) -> bool:
        """Start melody ``name`` at ``now``; False when a higher-priority one keeps playing."""
        try:
            melody = self.melodies[name]
        except KeyError:
            raise MelodyRangeError(
                f"no melody {name!r}; known: {', '.join(sorted(self.melodies))}"
            ) from None
        current = self._melody
        if current is not None and current.priority > melody.priority:
            if now - self._started < current.seconds:
                return False
        self._melody = melody
        self._started = now
        self.update(now)
        return True

    def update(self, now: float) -> None:
        """Sound the note due at ``now``; silence at the end of the melody."""
        if self._melody is None:
            return
        elapsed = now - self._started
        note = self._melody.note_at(elapsed)
        if elapsed >= self._melody.seconds:
            self._melody = None
            note = None
        if note != self._note:
            if note is None:
                self.device.stop()
            else:
                self.device.play(Tone(note))
            self._note = note

    def stop(self) -> None:
        self._melody = None
        self._note = None
        self.device.stop()

    @property
    def closed(self) -> bool:
        return bool(self.device.closed)

    def close(self) -> None:
        """Silence, then free the pin; a second call does nothing.

        Silenced first, and the pin freed even if that fails: a freed line keeps the level it
        was last driven to on some pin drivers, so a note left playing could go on sounding.
        """
        if self.device.closed:
            return
        try:
            self.stop()
        finally:
            self.device.close()


    def __repr__(self) -> str:
        return f"<Buzzer pin={self.pin} octaves={self.octaves} note={self._note}>"

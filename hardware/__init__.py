"""GPIO devices through gpiozero: the light bar, the buzzer and the buttons.

Every device takes ``pin_factory=None`` (gpiozero's default; lgpio on a Pi) and passes it
through, is a context manager, and frees its pins on ``close()``. The timer itself lives in
:mod:`companion.timer`; this package only renders it (:class:`hardware.table.TableHardware`)
and reports button presses as event objects on a queue.

Modules: :mod:`hardware.pins` (pin factories and the mock fallback), :mod:`hardware.light_bar`
(LED bar graph or WS2812 strip), :mod:`hardware.strip_drivers` (lazy Pi-only strip drivers),
:mod:`hardware.buzzer` (melodies as data), :mod:`hardware.buttons` (debounced presses),
:mod:`hardware.table` (the composite, the render loop and the factories) and
:mod:`hardware.wiring_check` (``companion hardware test``).
"""

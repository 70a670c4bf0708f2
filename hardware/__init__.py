"""GPIO devices through gpiozero: the light bar, the buzzer and the buttons."""

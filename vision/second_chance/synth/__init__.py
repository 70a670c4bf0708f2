"""Second Chance scene drawing: sheets filled by hand (``sheet``) and cards on the table
(``card``), for tests, the bench and the demo."""

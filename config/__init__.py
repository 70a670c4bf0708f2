"""The typed configuration: ``default.toml`` and the loader that validates it."""

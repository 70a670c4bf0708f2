"""One module and one kv file per screen."""

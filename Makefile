# Shortcuts for the README's two commands, ./scripts/run.sh and ./scripts/test.sh (each makes
# .venv when missing), and for the benchmarks and the kiosk installer.
VENV ?= .venv

.PHONY: run test bench install

$(VENV)/.installed: setup.cfg pyproject.toml
	./scripts/bootstrap.sh

run:
	./scripts/run.sh

test:
	./scripts/test.sh

bench: $(VENV)/.installed
	for b in bench/*.py; do echo "== $$b"; $(VENV)/bin/python $$b || exit 1; done

install:
	sudo ./systemd/install.sh

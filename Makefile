# The two commands of the README: `make run` and `make test`. Both make .venv when missing.
VENV ?= .venv

.PHONY: run test bench install

$(VENV)/.installed: setup.cfg pyproject.toml
	./scripts/bootstrap.sh

run: $(VENV)/.installed
	$(VENV)/bin/companion app

test: $(VENV)/.installed
	./scripts/test.sh

bench: $(VENV)/.installed
	for b in bench/*.py; do echo "== $$b"; $(VENV)/bin/python $$b || exit 1; done

install:
	sudo ./systemd/install.sh

# netprobe — build, run, test, benchmark, install.
# Quick start (as root on Debian): `make run` and `make check`.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
SYSCONFDIR ?= /etc
RELEASE_BIN = .build/release/netprobe
DEBUG_BIN = .build/debug/netprobe

.PHONY: all deps test-deps build release run check unit lab lint bench install uninstall clean default-probes

all: build

deps:
	scripts/install-deps build

test-deps:
	scripts/install-deps test

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Build and run one check on the built-in default probes.
run: release
	$(RELEASE_BIN) $(ARGS)

# The whole test suite: unit and loopback tests, docs lint, then the network lab.
check: test-deps
	$(SWIFT) build
	$(SWIFT) test
	$(MAKE) --no-print-directory lint
	NETPROBE_BIN=$(CURDIR)/$(DEBUG_BIN) lab/test

unit: deps
	$(SWIFT) test

lab: test-deps
	$(SWIFT) build
	NETPROBE_BIN=$(CURDIR)/$(DEBUG_BIN) lab/test $(SCENARIOS)

lint:
	mandoc -T lint -W warning man/netprobe.1

bench: test-deps release
	bench/run $(CURDIR)/$(RELEASE_BIN)

# Rewrites the built-in copy of probes.json after probes.json changed.
default-probes:
	scripts/embed-default-probes

clean:
	rm -rf .build

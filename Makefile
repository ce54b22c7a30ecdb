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

VERSION := $(shell scripts/version)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null)

.PHONY: all deps test-deps bench-deps deb-deps deb dist build release run check unit lab lint bench soak install uninstall ecosystem clean \
	fuzz fuzz-ci fuzz-build hostile check-sanitized check-tsan tsan-build

all: build

deps:
	scripts/install-deps build

test-deps:
	scripts/install-deps test

bench-deps:
	scripts/install-deps bench

deb-deps:
	scripts/install-deps deb

# The Debian package netprobe_$(VERSION)_$(DEB_ARCH).deb, built by dpkg-buildpackage from a
# clean copy of the tree, then checked by lintian (scripts/build-deb).
deb: deb-deps
	scripts/build-deb

# netprobe-$(VERSION)-linux-ARCH.tar.gz, for machines that are not Debian 12 (glibc 2.31+,
# libcurl 7.74+): the release binary and what `make install` installs with it, laid out as
# under /usr/local, with install.sh to install it under any prefix (scripts/dist).
DIST_NAME = netprobe-$(VERSION)-linux-$(shell uname -m)
dist: release
	scripts/dist $(RELEASE_BIN) $(DIST_NAME)

build: deps
	$(SWIFT) build

# The Swift runtime is linked in (--static-swift-stdlib): binding its ten shared libraries
# at every start cost more than the rest of an offline check. libnl, libstdc++ and libgcc
# are linked in too, from Debian's archives (scripts/static-libs): the binary then needs
# only libc (with libm, libpthread and libdl) at start, and libcurl when it first sends.
# See bench/results.md.
STATIC_LIBS = $(CURDIR)/.build/static-libs
# The binary runs on glibc 2.31 and newer (Debian 11, Ubuntu 20.04 and everything since):
# it is compiled and linked against Debian 11's glibc, GCC 10 runtime, libnl and libcurl
# headers (scripts/sysroot, taken once from a debootstrapped Debian 11 root), not against this
# machine's. A binary asks the loader for the symbol versions of the glibc it was linked
# against: linked on Debian 12 it asked for 2.32-2.35 for pthread_sigmask, stat, dlopen,
# pthread_create and __libc_start_main, which every glibc has. Linked against 2.31, the newest it asks for is
# 2.29 (exp, log and pow of libm); `readelf -V` lists them. On 2.31 pthreads and dlopen live
# in libpthread.so.0 and libdl.so.2, two more libraries named at start (empty stubs since 2.34).
SYSROOT = $(CURDIR)/.build/sysroot-bullseye
SYSROOT_FLAGS = -Xswiftc -sdk -Xswiftc $(SYSROOT) -Xcc --sysroot=$(SYSROOT)
# The Swift runtime was compiled against GCC 11's libstdc++ headers and calls one function that
# GCC 10's libstdc++.a does not have: std::__throw_bad_array_new_length() (a hash table's size
# overflowing). It is bound to GCC 10's std::__throw_bad_alloc(), which throws that error's
# base class; the runtime catches neither, so either ends the process the same way.
COMPAT_FLAGS = -Xlinker --defsym=_ZSt28__throw_bad_array_new_lengthv=_ZSt17__throw_bad_allocv
# --disable-local-rpath: no RUNPATH $$ORIGIN, which a binary needing only system libraries has
# no use for: the loader would try a dozen paths beside it for libc, libm and libcurl first.
# --no-export-dynamic: the static runtime's link arguments export every public Swift symbol
# (3,700 of them) from the executable; nothing looks them up, and the runtime's start-up
# dladdr() walked them all at every start.
# -disable-concrete-type-metadata-mangled-name-accessors: generic types our code (and the
# parser's) names are made by direct metadata accessors, which carry their protocol witnesses,
# instead of from mangled names that the runtime demangles and checks against every
# conformance record at first use: an offline check ran 20% fewer instructions.
# LINKER_FLAGS: the toolchain's lld. Its packed relative relocations (-z pack-relative-relocs,
# DT_RELR: the 41,500 relative relocations in 8 KB instead of 1 MB of RELA, 0.7-0.9 MB less
# peak RSS) are not used: the loader applies them only from glibc 2.36 on, and a binary
# carrying them refuses to start on older ones (GLIBC_ABI_DT_RELR). bench/README.md has both.
LINKER_FLAGS = -Xswiftc -use-ld=lld
RELEASE_FLAGS ?= --static-swift-stdlib --disable-local-rpath $(SYSROOT_FLAGS) -Xlinker -L$(STATIC_LIBS) \
	-Xswiftc -Xclang-linker -Xswiftc -static-libgcc $(COMPAT_FLAGS) \
	-Xlinker --no-export-dynamic -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors $(LINKER_FLAGS)
# SwiftPM rebuilds nothing when only a compiler flag changes: a release build made with other
# flags (or before they were recorded) is thrown away first.
RELEASE_STAMP = .build/release-flags
release: deps
	scripts/sysroot $(SYSROOT) >/dev/null
	scripts/static-libs --sysroot $(SYSROOT) $(STATIC_LIBS) >/dev/null
	@if [ "$$(cat $(RELEASE_STAMP) 2>/dev/null)" != '$(RELEASE_FLAGS)' ] && [ -e .build/release ]; then \
		echo "release flags changed: rebuilding from scratch"; rm -rf "$$(readlink -f .build/release)"; fi
	PKG_CONFIG_PATH=$(STATIC_LIBS)/pkgconfig $(SWIFT) build -c release $(RELEASE_FLAGS)
	@echo '$(RELEASE_FLAGS)' > $(RELEASE_STAMP)

# Build and run one check on the built-in default probes.
# A verdict (online 0, offline 1, portal 2) is an answer, not a failed make; errors (64/70/78) still fail.
run: release
	@status=0; $(RELEASE_BIN) $(ARGS) || status=$$?; [ $$status -le 2 ] || exit $$status

# The whole test suite: unit and loopback tests, the same under ThreadSanitizer
# (check-tsan), docs lint, the fuzz targets' short pass (fuzz-ci), the Debian package
# (built and lintian-checked here; Tests/ecosystem/test-deb.sh installs and purges it),
# `make release`, then the network lab (scenarios side by side: LAB_JOBS, default 4),
# the hostile-input corpus and the ecosystem tests. scripts/check runs the tests and the
# (niced) builds side by side and prints each stage's time; CHECK_SERIAL=1 runs them
# one after the other.
check: test-deps
	scripts/check

unit: deps
	$(SWIFT) test

lab: test-deps
	$(SWIFT) build
	NETPROBE_BIN=$(CURDIR)/$(DEBUG_BIN) lab/test $(SCENARIOS)

lint:
	mandoc -T lint -W warning man/netprobe.1

bench: bench-deps release
	bench/run $(CURDIR)/$(RELEASE_BIN)

# 1,000 link flaps under `netprobe watch`: RSS and open files at start and end (~5 min).
soak: test-deps release
	@status=0; NETPROBE_BIN=$(CURDIR)/$(RELEASE_BIN) bench/soak > bench/soak-results.txt 2>&1 || status=$$?; \
	cat bench/soak-results.txt; exit $$status

# The unit, loopback, CLI and wait/watch tests (swift test) under AddressSanitizer, then
# ThreadSanitizer, each in its own scratch path (.build-asan, .build-tsan: gitignored) so the
# plain build stays incremental. The CLI tests find the instrumented netprobe next to their
# bundle. LeakSanitizer is off: swift-argument-parser and XCTest leave allocations at exit
# that it reports (and then exits 1, failing every exit-status assertion). The tests' few
# wall-clock bounds scale by SANITIZER_SLOWDOWN: instrumented builds are slower, and TSan
# sleeps 1 s at every process exit (atexit_sleep_ms). `make check` runs the TSan half
# (check-tsan); the ASan half costs another full build and is run by hand.
check-sanitized: test-deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 SANITIZER_SLOWDOWN=3 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan
	$(MAKE) --no-print-directory check-tsan

check-tsan: test-deps tsan-build
	SANITIZER_SLOWDOWN=15 $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan

tsan-build:
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan

# The hostile-input corpus alone (Tests/hostile): `make hostile CASES="timeout- srv-"` for some.
hostile: test-deps
	$(SWIFT) build
	NETPROBE_BIN=$(CURDIR)/$(DEBUG_BIN) Tests/hostile/run $(CASES)

ecosystem: test-deps
	$(SWIFT) build
	NETPROBE_BIN=$(CURDIR)/$(DEBUG_BIN) Tests/ecosystem/run $(TESTS)

# Install: `make install` (PREFIX=/usr/local, DESTDIR= for staging). The binary is the
# release build (built when missing or older than the sources) unless INSTALL_BIN names
# another. The shipped probe set goes to $(PREFIX)/share/netprobe/probes.json always and
# to /etc/netprobe/probes.json only when that is absent: a user's file is never
# overwritten. `make uninstall` removes /etc/netprobe/probes.json only when it is still
# identical to the shipped copy. Completions come from the binary (swift-argument-parser);
# the systemd units get $(PREFIX)/bin/netprobe as their binary.
INSTALL_BIN ?= $(RELEASE_BIN)
DATADIR = $(DESTDIR)$(PREFIX)/share/netprobe
CONFDIR = $(DESTDIR)$(SYSCONFDIR)/netprobe
BASHCOMPDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
UNITDIR = $(DESTDIR)$(PREFIX)/lib/systemd/system
UNITS = $(notdir $(wildcard systemd/*.service systemd/*.timer))
SCHEMAS = $(notdir $(wildcard schemas/*.schema.json))
# Alerting and recording rules, their promtool tests and the Grafana dashboard, for fleets.
PROMETHEUS_FILES = netprobe-rules.yml netprobe-rules.test.yml grafana-netprobe.json

$(RELEASE_BIN): Package.swift probes.json $(shell find Sources -name '*.swift' -o -name '*.h' -o -name '*.modulemap')
	$(MAKE) --no-print-directory release

install: $(INSTALL_BIN)
	install -d "$(BINDIR)" "$(MANDIR)" "$(DATADIR)/schemas" "$(DATADIR)/prometheus" "$(CONFDIR)" "$(UNITDIR)" \
		"$(BASHCOMPDIR)" "$(ZSHCOMPDIR)" "$(FISHCOMPDIR)"
	install -m 0755 "$(INSTALL_BIN)" "$(BINDIR)/netprobe"
	install -m 0644 man/netprobe.1 "$(MANDIR)/netprobe.1"
	install -m 0644 probes.json "$(DATADIR)/probes.json"
	cd schemas && install -m 0644 $(SCHEMAS) "$(DATADIR)/schemas/"
	cd prometheus && install -m 0644 $(PROMETHEUS_FILES) "$(DATADIR)/prometheus/"
	@if [ ! -e "$(CONFDIR)/probes.json" ]; then \
		echo install -m 0644 probes.json "$(CONFDIR)/probes.json"; \
		install -m 0644 probes.json "$(CONFDIR)/probes.json"; \
	elif ! cmp -s probes.json "$(CONFDIR)/probes.json"; then \
		echo "make install: kept your $(CONFDIR)/probes.json; the shipped set is $(DATADIR)/probes.json"; \
	fi
	set -e; for shell in bash zsh fish; do \
		case $$shell in bash) to="$(BASHCOMPDIR)/netprobe" ;; zsh) to="$(ZSHCOMPDIR)/_netprobe" ;; \
			fish) to="$(FISHCOMPDIR)/netprobe.fish" ;; esac; \
		"$(INSTALL_BIN)" --generate-completion-script $$shell >"$$to.tmp"; \
		chmod 0644 "$$to.tmp"; mv "$$to.tmp" "$$to"; \
	done
	set -e; for unit in $(UNITS); do \
		sed -e 's#/usr/local/bin/netprobe#$(PREFIX)/bin/netprobe#g' -e 's#@BINDIR@#$(PREFIX)/bin#g' \
			"systemd/$$unit" >"$(UNITDIR)/$$unit.tmp"; \
		chmod 0644 "$(UNITDIR)/$$unit.tmp"; mv "$(UNITDIR)/$$unit.tmp" "$(UNITDIR)/$$unit"; \
	done

uninstall:
	rm -f "$(BINDIR)/netprobe" "$(MANDIR)/netprobe.1" "$(BASHCOMPDIR)/netprobe" \
		"$(ZSHCOMPDIR)/_netprobe" "$(FISHCOMPDIR)/netprobe.fish"
	for unit in $(UNITS); do rm -f "$(UNITDIR)/$$unit"; done
	@shipped="$(DATADIR)/probes.json"; [ -e "$$shipped" ] || shipped=probes.json; \
	if [ -e "$(CONFDIR)/probes.json" ]; then \
		if cmp -s "$$shipped" "$(CONFDIR)/probes.json"; then \
			echo rm -f "$(CONFDIR)/probes.json"; rm -f "$(CONFDIR)/probes.json"; \
		else echo "make uninstall: kept your modified $(CONFDIR)/probes.json"; fi; \
	fi
	for schema in $(SCHEMAS); do rm -f "$(DATADIR)/schemas/$$schema"; done
	for file in $(PROMETHEUS_FILES); do rm -f "$(DATADIR)/prometheus/$$file"; done
	rm -f "$(DATADIR)/probes.json"
	rmdir "$(DATADIR)/schemas" "$(DATADIR)/prometheus" "$(DATADIR)" "$(CONFDIR)" 2>/dev/null || true

# libFuzzer targets (fuzz/targets) for everything that reads hostile bytes: the JSON reader
# (and its selective reading against the full one), probes.json, Captive Portal API answers,
# portal markup, the probe classifier, the terminal escaper, DNS messages, DHCP leases and
# link state files, RFC 3339 timestamps
# and `report` on whole logs. The pure modules (NetprobeWire, NetprobeLinkState, NetprobeVerdict,
# NetprobeOutput, NetprobeReport: no file system, no C) are compiled with swiftc into instrumented static
# libraries, each on the ones below it; each target links them all.
# `make fuzz` runs each for FUZZ_SECONDS on a copy of its seed corpus (fuzz/corpus/TARGET);
# `make fuzz-ci` is the short pass `make check` runs, failing on the first crash.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = json jsonselect config capport markup classifier escape dns lease timestamp watchlog network-memory
FUZZ_DIR = .build/fuzz
FUZZ_MODULES = NetprobeWire NetprobeLinkState NetprobeVerdict NetprobeOutput NetprobeReport
FUZZ_LIBS = $(foreach module,$(FUZZ_MODULES),$(FUZZ_DIR)/lib$(module).a)
FUZZ_FLAGS = -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -use-ld=lld -package-name netprobe
SWIFTC ?= swiftc

module_sources = $(shell find Sources/$(1) -name '*.swift' | sort)
$(FUZZ_DIR)/libNetprobeWire.a: $(call module_sources,NetprobeWire)
$(FUZZ_DIR)/libNetprobeLinkState.a: $(call module_sources,NetprobeLinkState) $(FUZZ_DIR)/libNetprobeWire.a
$(FUZZ_DIR)/libNetprobeVerdict.a: $(call module_sources,NetprobeVerdict) $(FUZZ_DIR)/libNetprobeLinkState.a
$(FUZZ_DIR)/libNetprobeOutput.a: $(call module_sources,NetprobeOutput) $(FUZZ_DIR)/libNetprobeVerdict.a
$(FUZZ_DIR)/libNetprobeReport.a: $(call module_sources,NetprobeReport) $(FUZZ_DIR)/libNetprobeOutput.a
$(FUZZ_LIBS):
	@mkdir -p $(FUZZ_DIR)
	$(SWIFTC) $(FUZZ_FLAGS) -enable-testing -I $(FUZZ_DIR) -module-name $(patsubst lib%.a,%,$(notdir $@)) -emit-module \
		-emit-module-path $(FUZZ_DIR)/$(patsubst lib%.a,%,$(notdir $@)).swiftmodule -emit-library -static -o $@ \
		$(call module_sources,$(patsubst lib%.a,%,$(notdir $@)))

$(FUZZ_DIR)/fuzz-%: fuzz/targets/%.swift fuzz/targets/support.swift $(FUZZ_LIBS)
	$(SWIFTC) $(FUZZ_FLAGS) -I $(FUZZ_DIR) -L $(FUZZ_DIR) $(addprefix -l,$(FUZZ_MODULES)) -o $@ fuzz/targets/support.swift $<

fuzz-build: $(addprefix $(FUZZ_DIR)/fuzz-,$(FUZZ_TARGETS))

fuzz: fuzz-build
	fuzz/run $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-ci: fuzz-build
	fuzz/run 10 $(FUZZ_TARGETS)

clean:
	rm -rf .build .build-asan .build-tsan

# make install [PREFIX=/usr/local] [DESTDIR=] [CONFIG=release] [UDEVRULESDIR=...] [GNOME_SHELL_FLAVOUR=42-44|45-50]
# Puts the binary, the man pages, bash/zsh/fish completions, the systemd user unit,
# the example rule files, the udev rule (uaccess on touchpads and touchscreens), the KWin
# script and the GNOME Shell extension of the focus providers in place.
PREFIX ?= /usr/local
CONFIG ?= release
# udev reads packages' rules from /usr/lib/udev/rules.d and local ones from
# /etc/udev/rules.d, never from /usr/local or a home folder.
UDEVRULESDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/udev/rules.d,/etc/udev/rules.d)
BIN = $(shell swift build -c $(CONFIG) --show-bin-path)/touchgest
# The GNOME Shell extension comes in two flavours that GNOME cannot both load:
# data/gnome-shell/42-44 (scripts with `imports`) and 45-50 (ES modules). The one for the
# GNOME Shell here is put where GNOME looks; both go to share/touchgest/gnome-shell/ for
# `touchgest doctor` to point at after an upgrade. Without gnome-shell here, 45-50.
EXTENSION = touchgest-focus@touchgest.org
GNOME_SHELL_FLAVOUR ?= $(shell v=$$(gnome-shell --version 2>/dev/null | sed -nE 's/^GNOME Shell ([0-9]+).*/\1/p'); \
	if [ -n "$$v" ] && [ "$$v" -lt 45 ]; then echo 42-44; else echo 45-50; fi)

.PHONY: build install install-udev test

# The release build is self-contained: the Swift runtime and libstdc++ linked in, so the
# binary needs only libc (glibc 2.35, Ubuntu 22.04's) and the C libraries of the input
# and desktop channels; docs/packaging.md says why each flag is here, and why packed
# relocations (-z pack-relative-relocs, glibc 2.36) are not. Changing these flags can make
# SwiftPM compile everything again, so build other products with the same ones:
# make build PRODUCT=LatencyProbe.
STATIC_CXX = $(CURDIR)/.build/static-libstdc++
SWIFT_BUILD_FLAGS ?= --static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld -Xlinker -L$(STATIC_CXX) \
	-Xlinker -z -Xlinker now
PRODUCT ?= touchgest

build:
	mkdir -p $(STATIC_CXX) && ln -sf "$$(gcc -print-file-name=libstdc++.a)" $(STATIC_CXX)/libstdc++.a
	swift build -c $(CONFIG) $(SWIFT_BUILD_FLAGS) --product $(PRODUCT)

test:
	scripts/test

install: build
	install -Dm755 $(BIN) $(DESTDIR)$(PREFIX)/bin/touchgest
	install -Dm644 man/touchgest.1 $(DESTDIR)$(PREFIX)/share/man/man1/touchgest.1
	install -Dm644 man/touchgest-rules.5 $(DESTDIR)$(PREFIX)/share/man/man5/touchgest-rules.5
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d $(DESTDIR)$(PREFIX)/lib/systemd/user \
		$(DESTDIR)$(PREFIX)/share/doc/touchgest/examples
	$(BIN) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/touchgest
	$(BIN) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_touchgest
	$(BIN) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/touchgest.fish
	sed 's|@BINDIR@|$(PREFIX)/bin|' examples/touchgest.service > $(DESTDIR)$(PREFIX)/lib/systemd/user/touchgest.service
	install -m644 examples/*.toml examples/tour.tgrec $(DESTDIR)$(PREFIX)/share/doc/touchgest/examples/
	install -Dm755 -t $(DESTDIR)$(PREFIX)/share/doc/touchgest/examples/streams examples/streams/*
	install -Dm644 udev/70-touchgest.rules $(DESTDIR)$(PREFIX)/share/touchgest/70-touchgest.rules
	install -Dm644 data/uinput/70-touchgest-uinput.rules $(DESTDIR)$(PREFIX)/share/touchgest/70-touchgest-uinput.rules
	install -Dm644 data/kwin/touchgest-focus.js $(DESTDIR)$(PREFIX)/share/touchgest/kwin/touchgest-focus.js
	# KWin offers its fake input (keys, text, buttons) only to a program a desktop file names
	# by its exact path.
	install -d $(DESTDIR)$(PREFIX)/share/applications
	sed 's|@BINDIR@|$(PREFIX)/bin|' data/kwin/touchgest.desktop > $(DESTDIR)$(PREFIX)/share/applications/touchgest.desktop
	for flavour in 42-44 45-50; do install -Dm644 -t $(DESTDIR)$(PREFIX)/share/touchgest/gnome-shell/$$flavour/$(EXTENSION) \
		data/gnome-shell/$$flavour/$(EXTENSION)/metadata.json data/gnome-shell/$$flavour/$(EXTENSION)/extension.js; done
	install -Dm644 -t $(DESTDIR)$(PREFIX)/share/gnome-shell/extensions/$(EXTENSION) \
		data/gnome-shell/$(GNOME_SHELL_FLAVOUR)/$(EXTENSION)/metadata.json data/gnome-shell/$(GNOME_SHELL_FLAVOUR)/$(EXTENSION)/extension.js
	# The extension takes keys and actions only from the program this names (docs/input-actions.md).
	for folder in $(DESTDIR)$(PREFIX)/share/gnome-shell/extensions/$(EXTENSION) $(DESTDIR)$(PREFIX)/share/touchgest/gnome-shell/*/$(EXTENSION); do \
		echo "$(PREFIX)/bin/touchgest" > $$folder/trusted-programs && chmod 644 $$folder/trusted-programs; done
	@echo "installed the GNOME Shell extension for GNOME $(GNOME_SHELL_FLAVOUR) (GNOME_SHELL_FLAVOUR=42-44 or 45-50 picks the other)"
	@$(MAKE) --no-print-directory install-udev

# The udev rule where udev reads it. Without permission to write there (a PREFIX in your
# home folder), says how instead of failing: the rest of the install works without it.
install-udev:
	@if [ -n "$(DESTDIR)" ] || [ -w "$(UDEVRULESDIR)" ]; then \
		install -Dm644 udev/70-touchgest.rules $(DESTDIR)$(UDEVRULESDIR)/70-touchgest.rules && \
		echo "installed $(DESTDIR)$(UDEVRULESDIR)/70-touchgest.rules"; \
		if [ -z "$(DESTDIR)" ] && command -v udevadm >/dev/null; then \
			udevadm control --reload && udevadm trigger --subsystem-match=input --action=change; fi; \
	else \
		echo "make install: cannot write $(UDEVRULESDIR); to read touchpads and touchscreens without the input group, run:"; \
		echo "  sudo install -m644 udev/70-touchgest.rules $(UDEVRULESDIR)/ && sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=input --action=change"; \
	fi

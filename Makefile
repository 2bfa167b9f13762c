# make install [PREFIX=/usr/local] [DESTDIR=] [CONFIG=release]
# Puts the binary, the man pages, bash/zsh/fish completions, the systemd user unit and
# the example rule files in place.
PREFIX ?= /usr/local
CONFIG ?= release
BIN = $(shell swift build -c $(CONFIG) --show-bin-path)/touchgest

.PHONY: build install test

build:
	swift build -c $(CONFIG) --product touchgest

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

# make install [PREFIX=/usr/local] [DESTDIR=] [CONFIG=release]
# Puts the binary, the man pages, bash/zsh/fish completions, the systemd user unit and
# the example rule files in place.
PREFIX ?= /usr/local
CONFIG ?= release
BIN = $(shell swift build -c $(CONFIG) --show-bin-path)/touchgest

.PHONY: build install test

# The release build is self-contained: the Swift runtime and libstdc++ linked in, so the
# binary needs only libc, libinput and libudev; docs/packaging.md says why each flag is
# here. Changing these flags makes SwiftPM compile everything again, so build other
# products with the same ones: make build PRODUCT=LatencyProbe.
STATIC_CXX = $(CURDIR)/.build/static-libstdc++
SWIFT_BUILD_FLAGS ?= --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -L$(STATIC_CXX) \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker -z -Xlinker now
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
